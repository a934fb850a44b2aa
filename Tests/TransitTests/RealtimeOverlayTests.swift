import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// GTFS-Realtime trip updates laid over small feeds written here: matching, live times and
/// what routing does with them.
final class RealtimeOverlayTests: XCTestCase {
    private func utc(_ hour: Int, _ minute: Int, day: Int = 2) -> Date { localDate(2022, 3, day, hour, minute, zone: "UTC") }

    private func hm(_ date: Date?) -> String {
        guard let date else { return "nil" }
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: date)
    }

    private let a = MiniFeed.coordinate(km: 0), b = MiniFeed.coordinate(km: 5), c = MiniFeed.coordinate(km: 10)

    /// A (0 km) → B (5 km) → C (10 km): T1 at 08:00 and the second trip (T2 at 08:30 unless
    /// given), both every day of 2022. (The router holds its timetable in memory: the fixture's
    /// files may go.)
    private func lineRouter(second: (id: String, times: [String]) = ("T2", ["08:30:00", "08:40:00", "08:50:00"])) throws -> TransitRouter {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.stop("C", km: 10)
        feed.routes = [("R1", "1", 3)]
        feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00"), ("C", "08:20:00")])
        feed.trip(second.id, route: "R1", Array(zip(["A", "B", "C"], second.times)))
        return try FeedFixture().router(feed.files).0
    }

    private func update(_ trip: String?, date: String? = "20220302", relationship: RealtimeTripDescriptor.Relationship = .scheduled,
                        delay: Int? = nil, _ stops: [RealtimeStopTimeUpdate] = []) -> RealtimeTripUpdate {
        RealtimeTripUpdate(entityID: "u-\(trip ?? "none")", trip: RealtimeTripDescriptor(tripID: trip, startDate: date, relationship: relationship),
                           stopTimeUpdates: stops, delay: delay)
    }

    private func stop(_ id: String, delay: Int) -> RealtimeStopTimeUpdate {
        RealtimeStopTimeUpdate(stopID: id, arrival: RealtimeStopTimeEvent(delay: delay), departure: RealtimeStopTimeEvent(delay: delay))
    }

    private func feed(_ updates: [RealtimeTripUpdate], alerts: [RealtimeAlert] = []) -> RealtimeFeed {
        RealtimeFeed(timestamp: utc(7, 59), tripUpdates: updates, alerts: alerts)
    }

    private func leg(_ router: TransitRouter, _ from: Coordinate, _ to: Coordinate, _ timing: LegTiming) throws -> RouteLeg {
        try router.leg(from: from, to: to, timing: timing, pace: .normal, accessRadius: 100).best
    }

    // MARK: - Live times

    func testADelayAtAStopCarriesForwardAndTheJourneyShowsIt() throws {
        let router = try lineRouter()
        let report = router.applyRealtime([feed([update("T1", [stop("B", delay: 360)])])], now: utc(7, 59))
        XCTAssertEqual(report.feeds.first?.tripUpdatesApplied, 1)
        let ride = try XCTUnwrap(try leg(router, a, c, .departAt(utc(7, 55))).rides.first)
        XCTAssertEqual(ride.tripID, "T1")
        XCTAssertEqual(hm(ride.boarding.time), "2022-03-02 08:00", "before the first update: the timetable")
        XCTAssertEqual(ride.boarding.scheduledTime, ride.boarding.time, "live and on time")
        XCTAssertEqual(hm(ride.alighting.time), "2022-03-02 08:26", "B's delay carries on to C")
        XCTAssertEqual(hm(ride.alighting.scheduledTime), "2022-03-02 08:20")
        XCTAssertEqual(ride.alighting.delaySeconds, 360)
        XCTAssertTrue(ride.alighting.isRealtime)
    }

    func testTripLevelDelayAppliesWhereNoStopSaysOtherwise() throws {
        let router = try lineRouter()
        router.applyRealtime([feed([update("T1", delay: 120)])], now: utc(7, 59))
        let ride = try XCTUnwrap(try leg(router, a, c, .departAt(utc(7, 55))).rides.first)
        XCTAssertEqual(hm(ride.boarding.time), "2022-03-02 08:02")
        XCTAssertEqual(ride.alighting.delaySeconds, 120)
    }

    func testCarriedTimesAreForcedNonDecreasing() throws {
        let router = try lineRouter()
        // 15 min late leaving A; B has no data (back to 08:10), which cannot be before 08:15.
        let noData = RealtimeStopTimeUpdate(stopID: "B", relationship: .noData)
        router.applyRealtime([feed([update("T1", [stop("A", delay: 900), noData])])], now: utc(7, 59))
        let ride = try XCTUnwrap(try leg(router, a, b, .departAt(utc(7, 55))).rides.first)
        XCTAssertEqual(hm(ride.boarding.time), "2022-03-02 08:15")
        XCTAssertEqual(hm(ride.alighting.time), "2022-03-02 08:15")
    }

    func testMatchingByStopSequenceUsesTheFeedsNumbering() throws {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.routes = [("R1", "1", 3)]
        feed.trips = [("R1", "ALL", "T1", "")]
        feed.stopTimes = [("T1", "08:00:00", "08:00:00", "A", 10), ("T1", "08:10:00", "08:10:00", "B", 20)]
        let fixture = try FeedFixture()
        let router = try fixture.router(feed.files).0
        let bySequence = RealtimeStopTimeUpdate(stopSequence: 20, arrival: RealtimeStopTimeEvent(delay: 300))
        let report = router.applyRealtime([self.feed([update("T1", [bySequence])])], now: utc(7, 59))
        XCTAssertEqual(report.feeds.first?.tripUpdatesApplied, 1)
        XCTAssertEqual(hm(try leg(router, a, b, .departAt(utc(7, 55))).arrival), "2022-03-02 08:15")
        let unknown = RealtimeStopTimeUpdate(stopSequence: 2, arrival: RealtimeStopTimeEvent(delay: 300))
        let refused = router.applyRealtime([self.feed([update("T1", [unknown])])], now: utc(7, 59))
        XCTAssertEqual(refused.feeds.first?.tripUpdatesRefused, ["unknown_stop": 1])
    }

    func testAbsoluteTimesWinOverDelays() throws {
        let router = try lineRouter()
        let at = Int64(utc(8, 27).timeIntervalSince1970)
        let update = RealtimeStopTimeUpdate(stopID: "C", arrival: RealtimeStopTimeEvent(delay: 60, time: at))
        router.applyRealtime([feed([self.update("T1", [update])])], now: utc(7, 59))
        XCTAssertEqual(hm(try leg(router, a, c, .departAt(utc(7, 55))).arrival), "2022-03-02 08:27")
    }

    func testALiveRunDelayedPastTheTimetablesLastTimeIsCaughtAfterMidnight() throws {
        // The timetable's last time is 23:59; a query skips the service days whose trips all end
        // before it leaves, which must count the live runs' times too.
        let router = try lineRouter(second: ("T9", ["23:40:00", "23:50:00", "23:59:00"]))
        XCTAssertEqual(try leg(router, b, c, .departAt(utc(0, 5, day: 3))).rides.map(\.tripID), ["T1"], "the timetable alone")
        let report = router.applyRealtime([self.feed([update("T9", delay: 2400)])], now: utc(23, 45))
        XCTAssertEqual(report.feeds.first?.tripUpdatesApplied, 1)
        let ride = try XCTUnwrap(try leg(router, b, c, .departAt(utc(0, 5, day: 3))).rides.first)
        XCTAssertEqual(ride.tripID, "T9", "yesterday's last run, 40 minutes late")
        XCTAssertEqual(hm(ride.boarding.time), "2022-03-03 00:30")
        XCTAssertEqual(hm(ride.alighting.time), "2022-03-03 00:39")
    }

    // MARK: - Skipped and cancelled

    func testASkippedStopAllowsNoBoardingOrAlighting() throws {
        let router = try lineRouter()
        let skip = RealtimeStopTimeUpdate(stopID: "B", relationship: .skipped)
        router.applyRealtime([feed([update("T1", [skip])])], now: utc(7, 59))
        XCTAssertEqual(try leg(router, a, b, .departAt(utc(7, 55))).rides.map(\.tripID), ["T2"], "T1 no longer stops at B")
        XCTAssertEqual(try leg(router, a, c, .departAt(utc(7, 55))).rides.map(\.tripID), ["T1"], "but still runs A to C")
    }

    func testACancelledTripIsNotRoutedAndTheNextDepartureIsFound() throws {
        let router = try lineRouter()
        XCTAssertEqual(try leg(router, a, c, .departAt(utc(7, 55))).rides.map(\.tripID), ["T1"])
        let report = router.applyRealtime([feed([update("T1", relationship: .canceled)])], now: utc(7, 59))
        XCTAssertEqual(report.feeds.first?.tripsCancelled, 1)
        let next = try leg(router, a, c, .departAt(utc(7, 55)))
        XCTAssertEqual(next.rides.map(\.tripID), ["T2"])
        XCTAssertEqual(hm(next.departure), "2022-03-02 08:30")
    }

    func testAQueryOnAnotherDayIsUnaffected() throws {
        let router = try lineRouter()
        router.applyRealtime([feed([update("T1", relationship: .canceled), update("T2", delay: 600)])], now: utc(7, 59))
        let tomorrow = try XCTUnwrap(try leg(router, a, c, .departAt(utc(7, 55, day: 3))).rides.first)
        XCTAssertEqual(tomorrow.tripID, "T1")
        XCTAssertFalse(tomorrow.boarding.isRealtime)
        XCTAssertEqual(hm(tomorrow.alighting.time), "2022-03-03 08:20")
    }

    func testArriveByHonoursTheOverlay() throws {
        let router = try lineRouter()
        XCTAssertEqual(try leg(router, a, c, .arriveBy(utc(8, 55))).rides.map(\.tripID), ["T2"])
        router.applyRealtime([feed([update("T2", delay: 600)])], now: utc(7, 59))
        let late = try leg(router, a, c, .arriveBy(utc(8, 55)))
        XCTAssertEqual(late.rides.map(\.tripID), ["T1"], "T2 now arrives 09:00, after the deadline")
        let ontime = try leg(router, a, c, .arriveBy(utc(9, 5)))
        XCTAssertEqual(ontime.rides.map(\.tripID), ["T2"])
        XCTAssertEqual(ontime.rides.first?.alighting.delaySeconds, 600)
    }

    func testApplyingNoFeedsClearsTheOverlay() throws {
        let router = try lineRouter()
        router.applyRealtime([feed([update("T1", relationship: .canceled)])], now: utc(7, 59))
        router.applyRealtime([], now: utc(7, 59))
        let ride = try XCTUnwrap(try leg(router, a, c, .departAt(utc(7, 55))).rides.first)
        XCTAssertEqual(ride.tripID, "T1")
        XCTAssertFalse(ride.boarding.isRealtime)
    }

    func testJourneyAlternativesLeaveOutCancelledRunsAndShowLiveTimes() throws {
        let router = try lineRouter()
        router.applyRealtime([feed([update("T1", relationship: .canceled), update("T2", delay: 180)])], now: utc(7, 59))
        let legs = try router.journeys(from: a, to: c, timing: .departAt(utc(7, 55)), pace: .normal, count: 3, accessRadius: 100)
        XCTAssertEqual(legs.flatMap { $0.rides.map(\.tripID) }, ["T2"])
        XCTAssertEqual(legs.first?.rides.first?.boarding.delaySeconds, 180)
    }

    // MARK: - Matching

    func testMatchByRouteDirectionAndStartTimeWithoutATripID() throws {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.routes = [("R1", "1", 3)]
        feed.trip("OUT", route: "R1", [("A", "08:00:00"), ("B", "08:10:00")])
        feed.trip("BACK", route: "R1", [("B", "08:00:00"), ("A", "08:10:00")])
        feed.directions = ["OUT": 0, "BACK": 1]
        let fixture = try FeedFixture()
        let router = try fixture.router(feed.files).0
        let descriptor = RealtimeTripDescriptor(routeID: "R1", directionID: 1, startTime: "08:00:00", startDate: "20220302")
        let report = router.applyRealtime([self.feed([RealtimeTripUpdate(entityID: "x", trip: descriptor, delay: 300)])], now: utc(7, 59))
        XCTAssertEqual(report.feeds.first?.tripUpdatesApplied, 1)
        XCTAssertEqual(try leg(router, b, a, .departAt(utc(7, 55))).rides.first?.alighting.delaySeconds, 300)
        XCTAssertFalse(try XCTUnwrap(try leg(router, a, b, .departAt(utc(7, 55))).rides.first).alighting.isRealtime,
                       "direction 0 is another trip")
    }

    func testAMissingStartDateMeansTheRunNearestNow() throws {
        let router = try lineRouter()
        // Late in the evening of the 2nd, T1's nearest run is the 3rd's morning one.
        router.applyRealtime([feed([update("T1", date: nil, relationship: .canceled)])], now: utc(23, 0))
        XCTAssertEqual(try leg(router, a, c, .departAt(utc(7, 55, day: 3))).rides.map(\.tripID), ["T2"])
        XCTAssertEqual(try leg(router, a, c, .departAt(utc(7, 55))).rides.map(\.tripID), ["T1"])
    }

    func testUnknownTripsAndStopsAreCountedByReason() throws {
        let router = try lineRouter()
        let report = router.applyRealtime([feed([
            update("NOPE", delay: 60),
            update("T1", [stop("ELSEWHERE", delay: 60)]),
            update("T2", date: "20300101", delay: 60),  // past the calendar: that run does not exist
            update("T2", relationship: .added, delay: 60),
            update(nil, delay: 60),
        ])], now: utc(7, 59))
        XCTAssertEqual(report.feeds.first?.tripUpdatesRefused, ["unknown_trip": 3, "unknown_stop": 1, "unsupported": 1])
        XCTAssertEqual(report.feeds.first?.tripUpdatesApplied, 0)
        XCTAssertEqual(report.feeds.first?.touchesNothingHere, false, "an unsupported update is not an unknown one")
    }

    func testTimesGoingBackwardsOrTenYearsOffAreRefusedWhole() throws {
        let router = try lineRouter()
        let tenYears = Int64(utc(8, 10).timeIntervalSince1970) + 10 * 365 * 86_400
        let backwards = update("T1", [stop("A", delay: 600), RealtimeStopTimeUpdate(stopID: "B", arrival: RealtimeStopTimeEvent(delay: -300))])
        let farOff = update("T2", [stop("A", delay: 60), RealtimeStopTimeUpdate(stopID: "B", arrival: RealtimeStopTimeEvent(time: tenYears))])
        let empty = update("T2", [RealtimeStopTimeUpdate(stopID: "B")])
        let report = router.applyRealtime([feed([backwards, farOff, empty])], now: utc(7, 59))
        XCTAssertEqual(report.feeds.first?.tripUpdatesRefused, ["times_backwards": 1, "times_out_of_range": 1, "no_times": 1])
        // Nothing of them applied, not even their first stop's delay.
        let ride = try XCTUnwrap(try leg(router, a, c, .departAt(utc(7, 55))).rides.first)
        XCTAssertEqual(hm(ride.boarding.time), "2022-03-02 08:00")
        XCTAssertFalse(ride.boarding.isRealtime)
    }

    func testADifferentialFeedIsRefused() throws {
        let router = try lineRouter()
        let differential = RealtimeFeed(timestamp: utc(7, 59), isDifferential: true, tripUpdates: [update("T1", relationship: .canceled)])
        let report = router.applyRealtime([differential], now: utc(7, 59))
        XCTAssertEqual(report.feeds.first?.tripUpdatesRefused, ["differential_feed": 1])
        XCTAssertEqual(try leg(router, a, c, .departAt(utc(7, 55))).rides.map(\.tripID), ["T1"])
    }

    func testAFeedForAnotherRegionTouchesNothingHere() throws {
        let router = try lineRouter()
        let elsewhere = RealtimeAlert(entityID: "a1", informedEntities: [RealtimeEntitySelector(agencyID: "HSL")],
                                      header: [RealtimeTranslation(text: "Strike")])
        let report = router.applyRealtime([feed([update("HSL:1001", delay: 60), update("HSL:1002", delay: 60)], alerts: [elsewhere])],
                                          now: utc(7, 59))
        XCTAssertEqual(report.feeds.first?.alertsRefused, ["unknown_entity": 1])
        XCTAssertEqual(report.feeds.first?.touchesNothingHere, true)
    }

    func testTheOverlayKeepsItsOwnPatternsAndLeavesTheTimetableAlone() throws {
        let router = try lineRouter()
        let before = router.timetable
        let report = router.applyRealtime([feed([update("T1", delay: 60), update("T2", delay: 60)])], now: utc(7, 59))
        XCTAssertEqual(router.timetable.departures, before.departures)
        let overlay = try XCTUnwrap(router.realtime.snapshot)
        XCTAssertEqual(overlay.patterns.patterns.count, 1, "two runs of one pattern that do not overtake share a live pattern")
        XCTAssertGreaterThan(report.overlayMemoryBytes, 0)
    }
}
