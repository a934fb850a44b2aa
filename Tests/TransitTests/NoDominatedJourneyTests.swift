import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// The dominance rule (docs/planner.md): an answer never leaves earlier than it must for its
/// arrival, and a list of options never shows one that another dominates.
final class NoDominatedJourneyTests: XCTestCase {
    private func utc(_ hour: Int, _ minute: Int, _ second: Int = 0) -> Date {
        localDate(2022, 3, 2, hour, minute, second, zone: "UTC")
    }

    private func clock(_ date: Date?) -> String {
        guard let date else { return "nil" }
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "HH:mm:ss"
        return f.string(from: date)
    }

    private let origin = MiniFeed.coordinate(km: 0), destination = MiniFeed.coordinate(km: 5)

    /// Trams from FAR (400 m south of the origin, a 391 s walk) through NEAR (140 m north, 137 s)
    /// to D (at the destination): each passes FAR a minute before NEAR.
    private func twoStopsOfOneTripNearTheOrigin() -> MiniFeed {
        var feed = MiniFeed()
        feed.stop("FAR", km: -0.4)
        feed.stop("NEAR", km: 0.14)
        feed.stop("D", km: 5)
        feed.routes = [("R3", "3", 0)]
        feed.trip("T1", route: "R3", [("FAR", "10:48:00"), ("NEAR", "10:49:00"), ("D", "11:10:00")])
        feed.trip("T2", route: "R3", [("FAR", "11:18:00"), ("NEAR", "11:19:00"), ("D", "11:40:00")])
        return feed
    }

    /// Issue 39: leaving at 10:40, the answer walked 406 m to board tram 3 at 10:48 where the
    /// same tram stops 141 m away at 10:49; both arrive at the same time.
    func testTheSameTripIsBoardedAtTheNearerStopLeavingLater() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(twoStopsOfOneTripNearTheOrigin().files)
        let result = try router.leg(from: origin, to: destination, timing: .departAt(utc(10, 40)), pace: .normal, accessRadius: 500)
        XCTAssertEqual(result.best.rides.map(\.tripID), ["T1"])
        XCTAssertEqual(result.best.rides.first?.boarding.stopID, "NEAR")
        XCTAssertEqual(clock(result.best.departure), "10:46:43", "10:49 less the 137 s walk, not 10:48 less 391 s")
        XCTAssertEqual(clock(result.best.arrival), "11:10:00")
    }

    /// The next departures after the first one are the next tram, not the same tram boarded
    /// at the other stop ("the same tram twice, once with a 7-min walk").
    func testAlternativesNeverListTheSameTripTwice() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(twoStopsOfOneTripNearTheOrigin().files)
        let options = try router.journeys(from: origin, to: destination, timing: .departAt(utc(10, 40)), pace: .normal, count: 2,
                                          accessRadius: 500)
        XCTAssertEqual(options.map(\.tripIDs), [["T1"], ["T2"]])
        XCTAssertEqual(options.map { $0.rides.first?.boarding.stopID }, ["NEAR", "NEAR"])
    }

    /// Issue 39 (trial 48): an option with fewer transfers than the answer is one the forward
    /// rounds built, boarding its bus at the first stop where they caught it. Bus 6 passes FAR
    /// at 10:48 and NEAR at 10:49 on its slow way to D (11:20); changing to bus 19 at X gets
    /// there at 11:05, so the answer changes, and the direct bus is listed beside it: it was
    /// listed boarding at FAR, leaving 10:41:29 for a 391 s walk, where NEAR is a 137 s walk.
    func testEveryOptionBoardsItsFirstRideAtTheNearestStopOfItsTrip() throws {
        var feed = MiniFeed()
        feed.stop("FAR", km: -0.4)
        feed.stop("NEAR", km: 0.14)
        feed.stop("X", km: 2)
        feed.stop("D", km: 5)
        feed.routes = [("R6", "6", 3), ("R19", "19", 3)]
        feed.trip("T6", route: "R6", [("FAR", "10:48:00"), ("NEAR", "10:49:00"), ("X", "10:55:00"), ("D", "11:20:00")])
        feed.trip("T19", route: "R19", [("X", "10:57:00"), ("D", "11:05:00")])
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(feed.files)
        let result = try router.leg(from: origin, to: destination, timing: .departAt(utc(10, 40)), pace: .normal, accessRadius: 500)
        XCTAssertEqual(result.best.rides.map(\.tripID), ["T6", "T19"])
        XCTAssertEqual(result.alternatives.map(\.tripIDs), [["T6"]])
        XCTAssertEqual(result.alternatives.first?.rides.first?.boarding.stopID, "NEAR")
        XCTAssertEqual(clock(result.alternatives.first?.departure), "10:46:43", "10:49 less the 137 s walk, not 10:48 less 391 s")
        let options = try router.journeys(from: origin, to: destination, timing: .departAt(utc(10, 40)), pace: .normal, count: 3,
                                          accessRadius: 500)
        XCTAssertEqual(options.map(\.tripIDs), [["T6", "T19"], ["T6"]])
        XCTAssertEqual(options.map { $0.rides.first?.boarding.stopID }, ["NEAR", "NEAR"])
        XCTAssertEqual(options.map { clock($0.departure) }, ["10:46:43", "10:46:43"])
    }

    /// The mirror at the other end, arriving by 11:30: bus 6 passes NEAR (140 m before the
    /// destination) at 11:18 and then FAR (400 m past it) at 11:19; buses 7 and 19 leave later
    /// and change at X, so the answer changes, and the direct bus, built by the backward rounds,
    /// is listed beside it: it got off at FAR, the first stop those rounds reach it from.
    func testEveryArriveByOptionLeavesItsLastRideAtTheNearestStopOfItsTrip() throws {
        var feed = MiniFeed()
        feed.stop("O", km: 0)
        feed.stop("X", km: 2)
        feed.stop("NEAR", km: 4.86)
        feed.stop("FAR", km: 5.4)
        feed.routes = [("R6", "6", 3), ("R7", "7", 3), ("R19", "19", 3)]
        feed.trip("T6", route: "R6", [("O", "10:41:00"), ("NEAR", "11:18:00"), ("FAR", "11:19:00")])
        feed.trip("T7", route: "R7", [("O", "10:50:00"), ("X", "10:54:00")])
        feed.trip("T19", route: "R19", [("X", "10:57:00"), ("NEAR", "11:05:00")])
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(feed.files)
        let result = try router.leg(from: origin, to: destination, timing: .arriveBy(utc(11, 30)), pace: .normal, accessRadius: 500)
        XCTAssertEqual(result.best.rides.map(\.tripID), ["T7", "T19"])
        XCTAssertEqual(result.alternatives.map(\.tripIDs), [["T6"]])
        XCTAssertEqual(result.alternatives.first?.rides.last?.alighting.stopID, "NEAR")
        XCTAssertEqual(clock(result.alternatives.first?.arrival), "11:20:17", "11:18 and the 137 s walk, not 11:19 and 391 s")
    }

    /// Arrive-by, the mirror: the same tram passes NEAR (by the destination) a minute before
    /// FAR; arriving by 11:30 it leaves at the latest time and gets off at NEAR, arriving earlier.
    func testArriveByGetsOffTheSameTripAtTheNearerStopArrivingEarlier() throws {
        var feed = MiniFeed()
        feed.stop("O", km: 0)
        feed.stop("NEAR", km: 5.14)
        feed.stop("FAR", km: 4.6)
        feed.routes = [("R3", "3", 0)]
        feed.trip("T1", route: "R3", [("O", "10:48:00"), ("NEAR", "11:09:00"), ("FAR", "11:10:00")])
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(feed.files)
        let result = try router.leg(from: origin, to: destination, timing: .arriveBy(utc(11, 30)), pace: .normal, accessRadius: 500)
        XCTAssertEqual(result.best.rides.first?.alighting.stopID, "NEAR")
        XCTAssertEqual(clock(result.best.departure), "10:48:00")
        XCTAssertEqual(clock(result.best.arrival), "11:11:17", "11:09 and the 137 s walk, not 11:10 and 391 s")
    }

    /// Trial 59b F6 (`compare "Lielahti A" Keskustori --arrive-by 08:41`): bus 12, boarded at a
    /// stop a short walk away, left 08:18:45 and arrived 08:40:28, where bus 19 leaves the origin's
    /// own stop at 08:18:00 and arrives 08:35. Departures within a minute are the same departure,
    /// so the earliest arrival from it is taken: the forward pass starts a minute before the
    /// backward pass's latest departure.
    func testArriveByTakesTheEarlierArrivalLeavingWithinTheSameMinute() throws {
        var feed = MiniFeed()
        feed.stop("O", km: 0)
        feed.stop("A", km: 0.03)
        feed.stop("D", km: 5)
        feed.routes = [("R12", "12", 3), ("R19", "19", 3)]
        feed.trip("SLOW", route: "R12", [("A", "10:48:50"), ("D", "11:25:00")])
        feed.trip("FAST", route: "R19", [("O", "10:48:00"), ("D", "11:05:00")])
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(feed.files)
        let result = try router.leg(from: origin, to: destination, timing: .arriveBy(utc(11, 26)), pace: .normal, accessRadius: 500)
        XCTAssertEqual(result.best.rides.map(\.tripID), ["FAST"],
                       "leaving \(clock(result.best.departure)), arriving \(clock(result.best.arrival))")
        XCTAssertEqual(clock(result.best.arrival), "11:05:00")
    }

    /// Trial 60 F2's network: bus 50 leaves O (at the origin) at 09:46:30, passes S at 09:49, K at
    /// 09:52 and J at 09:54; bus 7 leaves S2, a footpath from S, at 09:53 and K at 09:56 for D
    /// (10:14); bus 8 leaves J2, a footpath from J, at 10:00 for D (10:16); and a slow direct bus
    /// leaves O at 09:36 for D (10:16:50). A forward search changes to bus 7 at S, the first stop
    /// where it catches it, a backward one at K, the last (as Sorin aukio and Koskipuisto C). With
    /// `sevenFartherOn`, bus 7 instead gets to D7, 300 m past the destination, at 10:10 (the
    /// walk from it arrives about 10:14:53): it arrives sooner but walks more than bus 8.
    private func theSameBusThenTwoChanges(sevenFartherOn: Bool = false) -> MiniFeed {
        var feed = MiniFeed()
        feed.stop("O", km: 0)
        feed.stop("S", km: 1)
        feed.stop("S2", km: 1, east: 0.05)
        feed.stop("K", km: 1.5)
        feed.stop("J", km: 2.1)
        feed.stop("J2", km: 2.1, east: 0.15)
        feed.stop("D", km: 5)
        if sevenFartherOn { feed.stop("D7", km: 5.3) }
        feed.routes = [("R50", "50", 3), ("R7", "7", 3), ("R8", "8", 3), ("RS", "1", 3)]
        feed.trip("T50", route: "R50", [("O", "09:46:30"), ("S", "09:49:00"), ("K", "09:52:00"), ("J", "09:54:00")])
        feed.trip("T7", route: "R7", [("S2", "09:53:00"), ("K", "09:56:00")] + [sevenFartherOn ? ("D7", "10:10:00") : ("D", "10:14:00")])
        feed.trip("T8", route: "R8", [("J2", "10:00:00"), ("D", "10:16:00")])
        feed.trip("SLOW", route: "RS", [("O", "09:36:00"), ("D", "10:16:50")])
        return feed
    }

    /// Trial 60 F2: asked at 09:35 the answer rode bus 50 and, after a walk, bus 8, arriving
    /// 10:17, while asked at 09:38:30 it rode the same bus 50 and bus 7, arriving 10:14. At 09:35
    /// the slow direct bus (10:16:50, no change) is the arrival a change must beat by the transfer
    /// penalty; the backward pass from its minute found the latest departure, bus 50 at 09:46:30,
    /// and built the journey through J (the last stop of bus 50 it scans first), not the one
    /// through K arriving sooner from the same departure. Asked earlier, the same departure never
    /// arrives later, and it changes where the answer asked later changes (the backward pass's K,
    /// not S, where the forward search from the departure catches bus 7 first).
    func testAskedEarlierTheSameDepartureArrivesNoLater() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(theSameBusThenTwoChanges().files)
        let asked = try router.leg(from: origin, to: destination, timing: .departAt(utc(9, 35)), pace: .normal, accessRadius: 500)
        let askedLater = try router.leg(from: origin, to: destination, timing: .departAt(utc(9, 38, 30)), pace: .normal,
                                        accessRadius: 500)
        XCTAssertEqual(askedLater.best.rides.map(\.tripID), ["T50", "T7"])
        XCTAssertEqual(clock(askedLater.best.arrival), "10:14:00")
        XCTAssertEqual(asked.best.rides.map(\.tripID), ["T50", "T7"],
                       "leaving \(clock(asked.best.departure)), arriving \(clock(asked.best.arrival))")
        XCTAssertEqual(clock(asked.best.departure), clock(askedLater.best.departure))
        XCTAssertEqual(clock(asked.best.arrival), "10:14:00")
        XCTAssertEqual(askedLater.best.rides.last?.boarding.stopID, "K", "the backward pass's change")
        XCTAssertEqual(asked.best.rides.last?.boarding.stopID, "K", "the change made where the answer asked later makes it")
    }

    /// The same with bus 7 arriving sooner but walking more than bus 8 (300 m past the
    /// destination): of journeys leaving together with as many changes, the earlier arrival as
    /// shown is taken before the shorter walk, so asking earlier does not trade arrival minutes
    /// for walking that the answer asked later does not.
    func testOfJourneysLeavingTogetherTheEarlierShownArrivalIsTakenBeforeTheShorterWalk() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(theSameBusThenTwoChanges(sevenFartherOn: true).files)
        let askedLater = try router.leg(from: origin, to: destination, timing: .departAt(utc(9, 38, 30)), pace: .normal,
                                        accessRadius: 500)
        XCTAssertEqual(askedLater.best.rides.map(\.tripID), ["T50", "T7"], "arriving \(clock(askedLater.best.arrival))")
        let asked = try router.leg(from: origin, to: destination, timing: .departAt(utc(9, 35)), pace: .normal, accessRadius: 500)
        XCTAssertEqual(asked.best.rides.map(\.tripID), ["T50", "T7"],
                       "leaving \(clock(asked.best.departure)), arriving \(clock(asked.best.arrival))")
        XCTAssertEqual(clock(asked.best.arrival), clock(askedLater.best.arrival))
    }

    // MARK: - The filter

    private func leg(_ departure: String, _ arrival: String, rides: Int = 1, walk: Double = 120) -> RouteLeg {
        func at(_ text: String) -> Date {
            let parts = text.split(separator: ":").compactMap { Int($0) }
            return utc(parts[0], parts[1], parts.count > 2 ? parts[2] : 0)
        }
        let call = TransitStopCall(stopID: "S", name: "S", coordinate: origin, time: at(departure))
        let ride = TransitRide(lineName: "3", vehicle: "tram", headsign: nil, tripID: "T\(departure)", headwaySeconds: nil,
                               boarding: call, alighting: call, alerts: [])
        let step = TransitWalkStep(kind: .access, fromName: "origin", from: origin, toName: "S", to: origin, start: at(departure),
                                   duration: walk, distance: walk)
        return RouteLeg(mode: .transit, expectedTravelTime: at(arrival).timeIntervalSince(at(departure)), distance: 1000,
                        departure: at(departure), arrival: at(arrival), geometry: [origin, destination],
                        rides: Array(repeating: ride, count: rides), walks: [step])
    }

    func testAnOptionLeavingEarlierForTheSameArrivalIsLeftOut() {
        let early = leg("10:43", "11:11"), late = leg("10:47", "11:11")
        XCTAssertEqual(JourneyDominance.undominated([early, late]), [late])
        XCTAssertEqual(JourneyDominance.undominated([late, early]), [late])
    }

    func testAnOptionArrivingLaterWithMoreTransfersOrMoreWalkingIsLeftOut() {
        let best = leg("10:45", "11:10", rides: 1, walk: 100)
        XCTAssertEqual(JourneyDominance.undominated([best, leg("10:45", "11:12", rides: 1, walk: 100)]), [best])
        XCTAssertEqual(JourneyDominance.undominated([leg("10:45", "11:10", rides: 2, walk: 100), best]), [best])
        XCTAssertEqual(JourneyDominance.undominated([best, leg("10:45", "11:10", rides: 1, walk: 300)]), [best])
    }

    /// Seen from Keskustori at 09:40: bus 80B leaving 09:43:30 arrives 09:48, bus 40A leaving
    /// 09:43:58 arrives 09:51 with more walking. Both are shown leaving at 09:43: the 28 s are
    /// no option, so the second is left out.
    func testAnOptionShownLeavingInTheSameMinuteButArrivingLaterIsLeftOut() {
        let first = leg("09:43:30", "09:48", walk: 300), second = leg("09:43:58", "09:51", walk: 360)
        XCTAssertEqual(JourneyDominance.undominated([first, second]), [first])
        XCTAssertEqual(JourneyDominance.undominated([second, first]), [first])
        let nextMinute = leg("09:44:02", "09:51", walk: 360)
        XCTAssertEqual(JourneyDominance.undominated([first, nextMinute]), [first], "32 s later buys no longer walk")
        let overAMinute = leg("09:44:31", "09:51", walk: 360)
        XCTAssertEqual(JourneyDominance.undominated([first, overAMinute]), [first, overAMinute], "it leaves over a minute later")
    }

    /// Trial 55 (`plan alternatives` from Pyynikintori to Lielahti at 08:09): the same bus 9 trip
    /// listed twice, boarded 38 s apart after 10 and 12 min of walking, and the same 80B trip
    /// twice, 9 s apart, once after an extra 70B ride (trial 56: walking less). Leaving less than
    /// a minute later buys neither a longer walk nor a change, whatever walking the change saves:
    /// each second one is left out, whichever minute it falls in.
    func testLeavingLessThanAMinuteLaterBuysNoLongerWalkAndNoChange() {
        let walked = leg("08:14:50", "08:40", walk: 600), fartherLater = leg("08:15:28", "08:40", walk: 720)
        XCTAssertEqual(JourneyDominance.undominated([fartherLater, walked]), [walked])
        let direct = leg("08:20:55", "08:45", rides: 1, walk: 300), fed = leg("08:21:04", "08:45", rides: 2, walk: 100)
        XCTAssertEqual(JourneyDominance.undominated([fed, direct]), [direct])
        let fedMuchLater = leg("08:22:10", "08:45", rides: 2, walk: 100)
        XCTAssertEqual(JourneyDominance.undominated([fedMuchLater, direct]), [fedMuchLater, direct],
                       "a change that lets the traveller leave over a minute later is an option")
    }

    /// Property: on seeded random option lists (times to the second, a few minutes apart), the
    /// filter keeps at least one option, keeps none that another dominates to the second or as
    /// shown, and leaves out only options another one dominates.
    func testTheFilterKeepsExactlyTheUndominatedOptionsOnRandomLists() {
        var g = SeededRandom(seed: 46)
        func time(_ base: Int) -> String {
            let seconds = base + Int.random(in: 0...240, using: &g)
            return "10:\(String(format: "%02d", seconds / 60)):\(String(format: "%02d", seconds % 60))"
        }
        for round in 0..<500 {
            let options = (0..<Int.random(in: 1...6, using: &g)).map { _ in
                leg(time(0), time(1200), rides: Int.random(in: 1...3, using: &g), walk: Double(60 * Int.random(in: 1...4, using: &g)))
            }
            let kept = JourneyDominance.undominated(options)
            XCTAssertFalse(kept.isEmpty, "round \(round)")
            let criteria = { (leg: RouteLeg) in JourneyDominance.Criteria(leg)! }
            for option in options {
                let beaten = options.contains { JourneyDominance.dominates(criteria($0), criteria(option)) }
                XCTAssertEqual(kept.contains(option), !beaten, "round \(round): \(criteria(option))")
                let shownBeaten = options.contains { other in
                    func minute(_ date: Date) -> Double { (date.timeIntervalSince1970 / 60).rounded(.down) }
                    let a = criteria(other), b = criteria(option)
                    let asGood = minute(a.departure) >= minute(b.departure) && minute(a.arrival) <= minute(b.arrival)
                        && a.transfers <= b.transfers && a.walkingSeconds <= b.walkingSeconds
                    let same = minute(a.departure) == minute(b.departure) && minute(a.arrival) == minute(b.arrival)
                        && a.transfers == b.transfers && a.walkingSeconds == b.walkingSeconds
                    return asGood && !same
                }
                if shownBeaten { XCTAssertFalse(kept.contains(option), "round \(round): dominated as shown") }
            }
        }
    }

    func testOptionsEachBetterInSomethingAreAllKept() {
        let options = [leg("10:40", "11:00", rides: 2), leg("10:45", "11:10", rides: 1), leg("10:50", "11:20", rides: 1),
                       leg("10:50", "11:20", rides: 1)]
        XCTAssertEqual(JourneyDominance.undominated(options), options, "later, fewer transfers, or equal in every way")
    }

    func testALegWithoutTimesIsKeptAndDominatesNothing() {
        var untimed = leg("10:40", "11:00")
        untimed.departure = nil
        let timed = leg("10:30", "11:30")
        XCTAssertEqual(JourneyDominance.undominated([untimed, timed]), [untimed, timed])
    }
}

// MARK: - On the real network

extension NoDominatedJourneyTests {
    private func tampereRouter() throws -> TransitRouter {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: zip.path), "shared Tampere data not found at \(zip.path)")
        return try TampereTransitTests.imported.get().router
    }

    /// Whether `options` (an answer and its alternatives, as `leg` gives them) hold a journey that
    /// leaves at least two minutes later and arrives no later as shown (in the same minute or
    /// before), whatever its transfers (a change that lets the traveller leave over a minute later
    /// is taken: `JourneyChoice.taken`).
    static func dominating(_ journey: RouteLeg, in options: [RouteLeg]) -> RouteLeg? {
        guard let departure = journey.departure, let arrival = journey.arrival else { return nil }
        func minute(_ date: Date) -> Double { (date.timeIntervalSince1970 / 60).rounded(.down) }
        return options.first {
            guard let d = $0.departure, let a = $0.arrival else { return false }
            return d >= departure.addingTimeInterval(120) && minute(a) <= minute(arrival)
        }
    }

    /// Whether `options` hold a journey leaving no earlier than `journey`, with no more transfers,
    /// that arrives in an earlier shown minute: asked later, the same departure (or a later one)
    /// arrives sooner (trial 60 F2).
    static func arrivingSooner(than journey: RouteLeg, in options: [RouteLeg]) -> RouteLeg? {
        guard let departure = journey.departure, let arrival = journey.arrival else { return nil }
        func minute(_ date: Date) -> Double { (date.timeIntervalSince1970 / 60).rounded(.down) }
        return options.first {
            guard let d = $0.departure, let a = $0.arrival else { return false }
            return d >= departure && minute(a) < minute(arrival) && $0.transfers <= journey.transfers
        }
    }

    /// Whether `options` hold a journey with no more transfers than `journey` that arrives at
    /// least two minutes earlier and leaves no earlier (arrive-by's mirror: a change must pay for
    /// itself in arrival).
    static func dominatingArriveBy(_ journey: RouteLeg, in options: [RouteLeg]) -> RouteLeg? {
        guard let departure = journey.departure, let arrival = journey.arrival else { return nil }
        return options.first {
            guard let d = $0.departure, let a = $0.arrival else { return false }
            return a <= arrival.addingTimeInterval(-120) && d >= departure && $0.transfers <= journey.transfers
        }
    }

    /// Seeded random pairs and morning times across Tampere: leaving two minutes after an
    /// answer's departure never arrives as early with no more transfers (depart-at), and arriving
    /// two minutes before its arrival never leaves as late (arrive-by).
    func testNoAnswerAcrossTampereIsDominatedByALaterDeparture() throws {
        let router = try tampereRouter()
        var g = SeededRandom(seed: 39)
        var checked = 0, arriveByChecked = 0
        for _ in 0..<150 {
            let from = Coordinate(latitude: Double.random(in: 61.44...61.52, using: &g), longitude: Double.random(in: 23.65...23.88, using: &g))
            let to = Coordinate(latitude: Double.random(in: 61.44...61.52, using: &g), longitude: Double.random(in: 23.65...23.88, using: &g))
            let time = localDate(2022, 1, 12, Int.random(in: 6...10, using: &g), Int.random(in: 0...59, using: &g))
            if let answer = try? router.leg(from: from, to: to, timing: .departAt(time), pace: .normal).best,
               let departure = answer.departure {
                guard let later = try? router.leg(from: from, to: to, timing: .departAt(departure.addingTimeInterval(120)),
                                                  pace: .normal) else { continue }
                let found = Self.dominating(answer, in: [later.best] + later.alternatives)
                XCTAssertNil(found, "\(from) → \(to) at \(time): \(answer.departure!)–\(answer.arrival!) on \(answer.tripIDs), "
                             + "yet \(found?.departure.map { "\($0)" } ?? "")–\(found?.arrival.map { "\($0)" } ?? "") on \(found?.tripIDs ?? [])")
                checked += 1
            }
            let deadline = time.addingTimeInterval(3600)
            if let answer = try? router.leg(from: from, to: to, timing: .arriveBy(deadline), pace: .normal).best,
               let arrival = answer.arrival,
               let earlier = try? router.leg(from: from, to: to, timing: .arriveBy(arrival.addingTimeInterval(-120)), pace: .normal) {
                let found = Self.dominatingArriveBy(answer, in: [earlier.best] + earlier.alternatives)
                XCTAssertNil(found, "\(from) → \(to) by \(deadline): \(answer.departure!)–\(arrival) on \(answer.tripIDs), "
                             + "yet \(found?.departure.map { "\($0)" } ?? "")–\(found?.arrival.map { "\($0)" } ?? "") on \(found?.tripIDs ?? [])")
                arriveByChecked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
        XCTAssertGreaterThan(arriveByChecked, 80)
    }

    /// The trial's cases and seeded random pairs and morning times across Tampere, each asked
    /// again 1, 2 and 4 minutes later (as trial 60 asked) and at the second its answer leaves: the
    /// later question never finds a journey leaving no earlier than the answer, with no more
    /// transfers, that arrives in an earlier shown minute (trial 60 F2: at 09:35 bus 50 and bus 8
    /// arrived 10:17, at 09:38:30 the same bus 50 and bus 7 arrived 10:14). Before the fix, 5 of
    /// 651 questions found one (the trial's first two pairs).
    func testAskingLaterNeverFindsTheSameDepartureArrivingSoonerAcrossTampere() throws {
        let router = try tampereRouter()
        var g = SeededRandom(seed: 6002)
        var checked = 0, beaten: [String] = []
        // The walks at the ends priced as the daemon's first search prices them (the straight line's
        // street bound at 5 km/h, `StreetTimedTransit`): the trial's cases lose the sooner arrival so.
        let streets = KnownEndWalks(unknownMetresPerSecond: 5 / 3.6, shortensStraightLines: true)
        // The trial's three first, then seeded ones.
        let found = [(61.47291, 23.77629, 61.50089, 23.70565, 9, 35), (61.46729, 23.85842, 61.49913, 23.74435, 8, 10),
                     (61.48564, 23.85986, 61.50398, 23.81219, 9, 51)].map {
            (Coordinate(latitude: $0.0, longitude: $0.1), Coordinate(latitude: $0.2, longitude: $0.3), localDate(2022, 1, 12, $0.4, $0.5))
        }
        let seeded = (0..<300).map { _ in
            (Coordinate(latitude: Double.random(in: 61.44...61.52, using: &g), longitude: Double.random(in: 23.65...23.88, using: &g)),
             Coordinate(latitude: Double.random(in: 61.44...61.52, using: &g), longitude: Double.random(in: 23.65...23.88, using: &g)),
             localDate(2022, 1, 12, Int.random(in: 6...10, using: &g), Int.random(in: 0...59, using: &g)))
        }
        for (from, to, time) in found + seeded {
            guard let answer = try? router.leg(from: from, to: to, timing: .departAt(time), pace: .normal, knownWalks: streets).best,
                  let departure = answer.departure else { continue }
            let times = [60, 120, 240].map { time.addingTimeInterval(TimeInterval($0)) }.filter { $0 < departure } + [departure]
            for again in times {
                guard let later = try? router.leg(from: from, to: to, timing: .departAt(again), pace: .normal,
                                                  knownWalks: streets) else { continue }
                checked += 1
                if let found = Self.arrivingSooner(than: answer, in: [later.best] + later.alternatives) {
                    beaten.append("\(from) → \(to) at \(time): \(answer.departure!)–\(answer.arrival!) on \(answer.tripIDs), yet at "
                                  + "\(again) \(found.departure.map { "\($0)" } ?? "")–\(found.arrival.map { "\($0)" } ?? "") on \(found.tripIDs)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 200)
        XCTAssertEqual(beaten, [], "\(beaten.count) of \(checked) beaten")
    }

    /// The backward pass bounded by the forward search's labels (`DepartureCorridor`) finds
    /// exactly what the same backward search finds without the bound, from the end of the minute
    /// the chosen journey's arrival is shown in (arrivals in it are the same arrival).
    func testTheDepartureCorridorChangesNoJourneyAtTampere() throws {
        let timetable = try tampereRouter().timetable
        let engine = Raptor(timetable: timetable, paceMultiplier: 1)
        let day = try XCTUnwrap(ServiceDate.dayNumber(year: 2022, month: 1, day: 12))
        let days = Raptor.serviceDays(around: day, timetable: timetable)
        let reference = ServiceDate.referenceInstant(day, in: timetable.timeZone)
        let stopCount = Int32(timetable.stops.count)
        var g = SeededRandom(seed: 3081)
        func endpoints() -> [Raptor.Endpoint] {
            (0..<Int.random(in: 1...4, using: &g)).map { _ in
                Raptor.Endpoint(stop: Int32.random(in: 0..<stopCount, using: &g), seconds: Int.random(in: 0...600, using: &g))
            }
        }
        var found = 0, later = 0
        for query in 0..<200 {
            let access = endpoints(), egress = endpoints()
            let time = reference + Int.random(in: 6 * 3600...20 * 3600, using: &g)
            let choose: ([Raptor.Journey]) -> Raptor.Journey? = query % 2 == 0 ? { $0.first } : { $0.last }
            let answer = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 5, thenLatestFrom: choose)
            XCTAssertEqual(answer.earliest, engine.departAt(time, access: access, egress: egress, days: days, maxRides: 5))
            guard let chosen = answer.chosen else { continue }
            let deadline = JourneyChoice.endOfShownMinute(chosen.arrival)
            let expected = engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: 5,
                                           horizon: deadline - chosen.departure + 1)
            XCTAssertEqual(answer.latest, expected, "query \(query)'s backward pass")
            XCTAssertGreaterThanOrEqual(answer.latest.last?.departure ?? .min, chosen.departure, "query \(query)")
            // With the margin the router asks for (`RideMargin`), the rounds past the chosen
            // journey's rides prune harder, and the journey taken is the same.
            let pruned = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 5,
                                         moreRidesLeavingLaterBy: JourneyChoice.equalTimes, thenLatestFrom: choose)
            XCTAssertEqual(JourneyChoice.taken(among: [chosen] + pruned.latest, arrivingInTheMinuteOf: chosen.arrival),
                           JourneyChoice.taken(among: [chosen] + answer.latest, arrivingInTheMinuteOf: chosen.arrival),
                           "query \(query) with the margin")
            found += 1
            if let last = answer.latest.last, last.departure > chosen.departure { later += 1 }
        }
        print("testTheDepartureCorridorChangesNoJourneyAtTampere: \(found) with a journey, \(later) leaving later after the backward pass")
        XCTAssertGreaterThan(found, 75)
        XCTAssertGreaterThan(later, 0, "the forward search's own journey often leaves earlier than it must")
    }

    /// The corridor without slack holds only for a journey of the forward search's Pareto set
    /// (`DepartureCorridor`): one it did not find gets no backward pass, rather than one the
    /// corridor might cut short.
    func testOnlyAJourneyTheForwardSearchFoundGetsTheBackwardPass() throws {
        let timetable = try tampereRouter().timetable
        let engine = Raptor(timetable: timetable, paceMultiplier: 1)
        let day = try XCTUnwrap(ServiceDate.dayNumber(year: 2022, month: 1, day: 12))
        let days = Raptor.serviceDays(around: day, timetable: timetable)
        let time = ServiceDate.referenceInstant(day, in: timetable.timeZone) + 10 * 3600 + 40 * 60
        let stop = { (id: String) in try XCTUnwrap(timetable.stopIndexByID[id]) }
        // Keskustori to Hervantakeskus, as in issue 39 (tram 3 and buses).
        let access = try [Raptor.Endpoint(stop: stop("0806"), seconds: 120), Raptor.Endpoint(stop: stop("0001"), seconds: 200)]
        let egress = try [Raptor.Endpoint(stop: stop("0833"), seconds: 120), Raptor.Endpoint(stop: stop("3522"), seconds: 150)]
        let found = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 5) { $0.last }
        let chosen = try XCTUnwrap(found.chosen)
        XCTAssertFalse(found.latest.isEmpty, "the journey found gets its backward pass")
        let other = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 5) { journeys in
            journeys.last.map { var later = $0; later.arrival += 60; return later }
        }
        XCTAssertEqual(other.chosen?.arrival, chosen.arrival + 60)
        XCTAssertEqual(other.latest, [], "a journey the forward search did not find gets none")
    }
}

// MARK: - On random feeds

extension RaptorPropertyTests {
    /// On seeded random feeds: the backward pass after a depart-at search leaves exactly as late
    /// as the brute force's latest departure arriving in the shown minute of the chosen journey's
    /// arrival (or before), with any
    /// number of rides; and the router's answer is never dominated by one leaving two minutes later.
    func testDepartAtLeavesAsLateAsTheBruteForceAllowsForItsArrivalOnRandomFeeds() throws {
        let fixture = try FeedFixture()
        var checked = 0, later = 0, routed = 0, askedAgain = 0
        for seed in UInt64(1)...30 {
            let world = makeWorld(seed: seed &* 0x2545_F491_4F6C_DD1D)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            let days = Raptor.serviceDays(around: Self.day0, timetable: timetable)
            let engine = Raptor(timetable: timetable, paceMultiplier: 1)
            let router = TransitRouter(timetable: timetable, walking: Self.walking)
            var g = SeededRandom(seed: seed &+ 39)
            for _ in 0..<10 {
                let (from, to, access, egress) = randomEnds(world, using: &g)
                let time = Self.day0 * 86_400 + 60 * Int.random(in: 5 * 60...11 * 60, using: &g)
                guard !access.isEmpty, !egress.isEmpty else { continue }
                let choose: ([Raptor.Journey]) -> Raptor.Journey? = seed % 2 == 0 ? { $0.first } : { $0.last }
                let answer = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 12, thenLatestFrom: choose)
                if let chosen = answer.chosen {
                    // Leaving later never arrives earlier: bisect on the brute force's arrival.
                    let deadline = JourneyChoice.endOfShownMinute(chosen.arrival)
                    func fits(_ t: Int) -> Bool {
                        bruteForceArrivalsByRides(world, time: t, access: access, egress: egress, horizon: .max / 4)
                            .contains { $0.key <= 12 && $0.value <= deadline }
                    }
                    var low = chosen.departure, high = deadline
                    XCTAssertTrue(fits(low), "seed \(seed): the chosen journey itself fits")
                    while low < high {
                        let mid = (low + high + 1) / 2
                        if fits(mid) { low = mid } else { high = mid - 1 }
                    }
                    XCTAssertEqual(answer.latest.last?.departure, low, "seed \(seed) depart-at \(time)")
                    // With the router's margin, the journey taken leaves within a minute of that.
                    let pruned = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 12,
                                                 moreRidesLeavingLaterBy: JourneyChoice.equalTimes, thenLatestFrom: choose)
                    let taken = JourneyChoice.taken(among: [chosen] + pruned.latest, arrivingInTheMinuteOf: chosen.arrival)
                    XCTAssertGreaterThanOrEqual(taken?.departure ?? .min, low - JourneyChoice.equalTimes, "seed \(seed) depart-at \(time)")
                    for j in answer.latest {
                        XCTAssertLessThanOrEqual(j.arrival, deadline, "seed \(seed)")
                        assertWalksFollowTheModel(world, j, "seed \(seed) backward pass from \(chosen.arrival)")
                    }
                    checked += 1
                    if low > chosen.departure { later += 1 }
                }
                let at = Date(timeIntervalSince1970: Double(time))
                if let best = try? router.leg(from: from, to: to, timing: .departAt(at), pace: .normal, accessRadius: 500).best,
                   let departure = best.departure,
                   let next = try? router.leg(from: from, to: to, timing: .departAt(departure.addingTimeInterval(120)), pace: .normal,
                                              accessRadius: 500) {
                    XCTAssertNil(NoDominatedJourneyTests.dominating(best, in: [next.best] + next.alternatives),
                                 "seed \(seed) routed at \(time)")
                    routed += 1
                    // Asked again 1, 2 and 4 minutes later (as the trial asked) and at the second it
                    // leaves, the router finds nothing leaving no earlier, with no more transfers,
                    // that arrives in an earlier shown minute (trial 60 F2: asked earlier, the same
                    // departure arrived 3 min later).
                    let times = [60, 120, 240].map { at.addingTimeInterval(TimeInterval($0)) }.filter { $0 < departure } + [departure]
                    for time in times {
                        guard let again = try? router.leg(from: from, to: to, timing: .departAt(time), pace: .normal,
                                                          accessRadius: 500) else { continue }
                        XCTAssertNil(NoDominatedJourneyTests.arrivingSooner(than: best, in: [again.best] + again.alternatives),
                                     "seed \(seed) routed at \(at) and again at \(time)")
                        askedAgain += 1
                    }
                }
            }
        }
        print("testDepartAtLeavesAsLateAsTheBruteForceAllowsForItsArrivalOnRandomFeeds: \(checked) checked, \(later) leaving later than the forward journey, \(routed) routed, \(askedAgain) asked again")
        XCTAssertGreaterThan(checked, 60)
        XCTAssertGreaterThan(later, 0, "some forward journeys leave earlier than they must")
        XCTAssertGreaterThan(routed, 40)
        XCTAssertGreaterThan(askedAgain, 40)
    }
}
