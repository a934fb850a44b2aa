import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// GTFS-Realtime alerts on rides and stops, and a ride as the overlay in force sees it.
final class RealtimeOverlayAlertTests: XCTestCase {
    private func utc(_ hour: Int, _ minute: Int) -> Date { localDate(2022, 3, 2, hour, minute, zone: "UTC") }
    private func posix(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970) }

    private let a = MiniFeed.coordinate(km: 0), b = MiniFeed.coordinate(km: 5), c = MiniFeed.coordinate(km: 10)

    /// A → B → C on route R1 (T1 08:00, T2 08:30) and route R2 (U1 A → C 08:05, no stop at B).
    private func router() throws -> TransitRouter {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.stop("C", km: 10)
        feed.routes = [("R1", "1", 3), ("R2", "2", 3)]
        feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00"), ("C", "08:20:00")])
        feed.trip("T2", route: "R1", [("A", "08:30:00"), ("B", "08:40:00"), ("C", "08:50:00")])
        feed.trip("U1", route: "R2", [("A", "09:05:00"), ("C", "09:30:00")])
        return try FeedFixture().router(feed.files).0
    }

    private func leg(_ router: TransitRouter, _ from: Coordinate, _ to: Coordinate, at time: Date) throws -> RouteLeg {
        try router.leg(from: from, to: to, timing: .departAt(time), pace: .normal, accessRadius: 100).best
    }

    private func alert(_ id: String, effect: String = "detour", _ entities: [RealtimeEntitySelector],
                       from: Date? = nil, until: Date? = nil, header: [RealtimeTranslation]? = nil) -> RealtimeAlert {
        let periods = from == nil && until == nil ? [] : [RealtimeAlert.ActivePeriod(start: from.map(posix), end: until.map(posix))]
        return RealtimeAlert(entityID: id, activePeriods: periods, informedEntities: entities, effect: effect,
                             header: header ?? [RealtimeTranslation(text: "Alert \(id)")])
    }

    @discardableResult
    private func apply(_ router: TransitRouter, alerts: [RealtimeAlert] = [], updates: [RealtimeTripUpdate] = []) -> RealtimeApplyReport {
        router.applyRealtime([RealtimeFeed(timestamp: utc(7, 59), tripUpdates: updates, alerts: alerts)], now: utc(7, 59))
    }

    func testANoServiceAlertOnAStopKeepsRoutesFromBoardingOrAlightingThere() throws {
        let router = try router()
        apply(router, alerts: [alert("closed", effect: "no_service", [RealtimeEntitySelector(stopID: "B")], from: utc(7, 0), until: utc(8, 25))])
        XCTAssertThrowsError(try leg(router, a, b, at: utc(7, 55)), "nothing may alight at B")
        XCTAssertThrowsError(try leg(router, b, c, at: utc(7, 55)), "nothing may board at B")
        XCTAssertEqual(try leg(router, a, c, at: utc(7, 55)).rides.map(\.tripID), ["T1"], "T1 still runs through B")
        // Asked after its active period, the stop is open.
        XCTAssertEqual(try leg(router, a, b, at: utc(8, 26)).rides.map(\.tripID), ["T2"])
    }

    func testANoServiceAlertNotYetActiveLeavesTheStopOpen() throws {
        let router = try router()
        apply(router, alerts: [alert("later", effect: "no_service", [RealtimeEntitySelector(stopID: "B")], from: utc(10, 0))])
        XCTAssertEqual(try leg(router, a, b, at: utc(7, 55)).rides.map(\.tripID), ["T1"])
    }

    func testAlertsAreAttachedToTheRidesTheyTouchWhileTheyRun() throws {
        let router = try router()
        let report = apply(router, alerts: [
            alert("route", [RealtimeEntitySelector(routeID: "R1")]),
            alert("stop-c", [RealtimeEntitySelector(stopID: "C")], header: [
                RealtimeTranslation(text: "Pysäkki siirretty", language: "fi"), RealtimeTranslation(text: "Stop moved", language: "en"),
            ]),
            alert("other-route", [RealtimeEntitySelector(routeID: "R2")]),
            alert("stop-b", [RealtimeEntitySelector(stopID: "B")]),
            alert("over", [RealtimeEntitySelector(routeID: "R1")], from: utc(6, 0), until: utc(7, 0)),
            alert("trip", [RealtimeEntitySelector(trip: RealtimeTripDescriptor(tripID: "T1"))]),
            alert("agency", [RealtimeEntitySelector(agencyID: "A")], from: utc(8, 15)),
        ])
        XCTAssertEqual(report.feeds.first?.alertsApplied, 7)
        let ride = try XCTUnwrap(try leg(router, a, c, at: utc(7, 55)).rides.first)
        XCTAssertEqual(ride.tripID, "T1")
        XCTAssertEqual(ride.alerts.map(\.id), ["route", "stop-c", "trip", "agency"],
                       "not another route's, not an intermediate stop's, not one over before the ride")
        let moved = try XCTUnwrap(ride.alerts.first { $0.id == "stop-c" })
        XCTAssertEqual(moved.header, "Pysäkki siirretty", "the first translation when none is untranslated")
        XCTAssertEqual(moved.language, "fi")
    }

    /// Issue 43: an alert from a realtime feed not tied to one GTFS feed, naming a `stop_id` two
    /// feeds of the region share, used to read it as the last feed's stop, so the first feed's
    /// riders at its own stop A never saw it. Untied, it is every feed's stop A (which feed's is
    /// meant cannot be told; a tied feed names its own alone).
    func testAnUntiedAlertOnAStopIDTwoFeedsShareTouchesBothFeedsRidesAtTheirStopOfThatID() throws {
        func feed(east: Double) -> [String: String] {
            var feed = MiniFeed()
            feed.stop("A", km: 0, east: east)
            feed.stop("B", km: 5, east: east)
            feed.routes = [("R1", "1", 3)]
            feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00")])
            return feed.files
        }
        let fixture = try FeedFixture()
        _ = try GTFSImporter().importFeeds([try fixture.zip(feed(east: 0), name: "west"), try fixture.zip(feed(east: 20), name: "east")],
                                           intoRegionDirectory: fixture.regionDirectory, walking: StraightLineWalking())
        let router = try TransitRouter(regionDirectory: fixture.regionDirectory)
        let report = apply(router, alerts: [alert("works", [RealtimeEntitySelector(stopID: "A")])])
        XCTAssertEqual(report.feeds.first?.alertsApplied, 1)
        for east in [0.0, 20] {
            let ride = try XCTUnwrap(try leg(router, MiniFeed.coordinate(km: 0, east: east), MiniFeed.coordinate(km: 5, east: east),
                                             at: utc(7, 55)).rides.first)
            XCTAssertEqual(ride.alerts.map(\.id), ["works"], "the ride from A of the feed \(east) km east")
        }
    }

    func testAnAlertTouchingNothingHereIsRefused() throws {
        let router = try router()
        let report = apply(router, alerts: [alert("x", [RealtimeEntitySelector(stopID: "nowhere")]),
                                            alert("y", [RealtimeEntitySelector(routeID: "R1", stopID: "nowhere")])])
        XCTAssertEqual(report.feeds.first?.alertsRefused, ["unknown_entity": 2])
        XCTAssertEqual(report.feeds.first?.alertsApplied, 0)
    }

    func testLiveRideShowsTheDelayCancellationSkipAndAlertsOfAPinnedRide() throws {
        let router = try router()
        let pinned = try XCTUnwrap(try leg(router, a, c, at: utc(7, 55)).rides.first)
        XCTAssertEqual(router.liveRide(pinned), pinned, "no overlay: the ride as timetabled")

        let late = RealtimeTripUpdate(entityID: "1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220302"), delay: 360)
        apply(router, alerts: [alert("route", [RealtimeEntitySelector(routeID: "R1")])], updates: [late])
        let live = router.liveRide(pinned)
        XCTAssertEqual(live.boarding.delaySeconds, 360)
        XCTAssertEqual(live.alighting.scheduledTime, pinned.alighting.time)
        XCTAssertEqual(live.alighting.time, pinned.alighting.time.addingTimeInterval(360))
        XCTAssertFalse(live.cancelled)
        XCTAssertEqual(live.alerts.map(\.id), ["route"])
        XCTAssertEqual(router.liveRide(live), live, "a live ride is found again by its timetable time")

        let cancelled = RealtimeTripUpdate(entityID: "1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220302", relationship: .canceled))
        apply(router, updates: [cancelled])
        XCTAssertTrue(router.liveRide(live).cancelled)
        XCTAssertFalse(router.liveRide(live).boarding.isRealtime)

        let skipsC = RealtimeTripUpdate(entityID: "1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220302"),
                                        stopTimeUpdates: [RealtimeStopTimeUpdate(stopID: "C", relationship: .skipped)])
        apply(router, updates: [skipsC])
        XCTAssertTrue(router.liveRide(pinned).cancelled, "its alighting stop is skipped")

        router.applyRealtime([], now: utc(7, 59))
        XCTAssertEqual(router.liveRide(live), pinned, "cleared: back to the timetable")
    }
}
