import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Patterns group trips by stop sequence, whatever their route: the rounds then scan the trips
/// of several routes on the same stops as one pattern (issue 26), while each ride still names
/// its own route, and a trip that overtakes another is kept apart from it.
final class PatternMergingTests: XCTestCase {
    private func utc(_ day: Int, _ hour: Int, _ minute: Int) -> Date {
        localDate(2022, 3, day, hour, minute, zone: "UTC")
    }

    private let a = MiniFeed.coordinate(km: 0), c = MiniFeed.coordinate(km: 10)

    /// A (0 km) → B (5 km) → C (10 km), routes 1 (bus) and 2 (tram).
    private func lineFeed() -> MiniFeed {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.stop("C", km: 10)
        feed.routes = [("R1", "1", 3), ("R2", "2", 0)]
        return feed
    }

    private func query(_ router: TransitRouter, _ from: Coordinate, _ to: Coordinate, _ timing: LegTiming) throws -> TransitJourneyResult {
        try router.leg(from: from, to: to, timing: timing, pace: .normal, accessRadius: 100)
    }

    func testTripsOfTwoRoutesOnTheSameStopsShareOnePatternAndKeepTheirRoutes() throws {
        var feed = lineFeed()
        feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00"), ("C", "08:20:00")])
        feed.trip("T2", route: "R2", [("A", "08:05:00"), ("B", "08:15:00"), ("C", "08:25:00")])
        feed.trip("T3", route: "R1", [("A", "08:30:00"), ("B", "08:40:00"), ("C", "08:50:00")])
        let fixture = try FeedFixture()
        let (timetable, _) = try fixture.timetable(feed.files)
        XCTAssertEqual(timetable.patterns.count, 1, "one stop sequence, no overtaking: one pattern")
        XCTAssertEqual(timetable.tripIDs, ["T1", "T2", "T3"], "trips sorted by departure across routes")
        XCTAssertEqual(timetable.tripRoutes.map { timetable.routes[Int($0)].id }, ["R1", "R2", "R1"])

        let (router, _) = try fixture.router(feed.files)
        let tram = try query(router, a, c, .departAt(utc(2, 8, 1)))
        XCTAssertEqual(tram.best.rides.map(\.tripID), ["T2"])
        XCTAssertEqual(tram.best.rides.map(\.lineName), ["2"])
        XCTAssertEqual(tram.best.rides.map(\.vehicle), ["tram"])
        let bus = try query(router, a, c, .departAt(utc(2, 8, 6)))
        XCTAssertEqual(bus.best.rides.map(\.lineName), ["1"])
        XCTAssertEqual(bus.best.rides.map(\.vehicle), ["bus"])
        XCTAssertEqual(bus.best.rides.map(\.tripID), ["T3"])

        let loaded = try TimetableStore(regionDirectory: fixture.regionDirectory).load()
        XCTAssertEqual(loaded.patterns, timetable.patterns)
        XCTAssertEqual(loaded.tripRoutes, timetable.tripRoutes, "each trip's route is stored")
    }

    /// An express (route 2) leaves A after the slow bus (route 1) and reaches C before it: the
    /// two must not share a pattern, or the search for the earliest trip from A would stop at
    /// the slow bus and miss the express.
    func testATripOvertakingAnotherOnTheSameStopsGivesTheEarliestArrival() throws {
        var feed = lineFeed()
        feed.trip("SLOW", route: "R1", [("A", "08:00:00"), ("B", "08:30:00"), ("C", "09:00:00")])
        feed.trip("FAST", route: "R2", [("A", "08:10:00"), ("B", "08:20:00"), ("C", "08:30:00")])
        feed.trip("LATER", route: "R1", [("A", "08:40:00"), ("B", "09:10:00"), ("C", "09:40:00")])
        let fixture = try FeedFixture()
        let (timetable, _) = try fixture.timetable(feed.files)
        XCTAssertEqual(timetable.patterns.count, 2, "the overtaking trip is kept apart")
        let (router, _) = try fixture.router(feed.files)

        let departing = try query(router, a, c, .departAt(utc(2, 7, 55)))
        XCTAssertEqual(departing.best.rides.map(\.tripID), ["FAST"])
        XCTAssertEqual(departing.best.arrival, utc(2, 8, 30))
        let arriving = try query(router, a, c, .arriveBy(utc(2, 9, 0)))
        XCTAssertEqual(arriving.best.rides.map(\.tripID), ["FAST"], "the latest departure arriving by 09:00")
        XCTAssertEqual(arriving.best.departure, utc(2, 8, 10))
    }

    /// Copies of one route shifted in time (the bench's laid-over feed) never overtake: they are
    /// one pattern, and each ride is the copy that leaves first.
    func testShiftedCopiesOfARouteAreOnePatternAndTheFirstCopyToLeaveIsRidden() throws {
        var feed = lineFeed()
        feed.routes.append(("R3", "3", 3))
        for (k, route) in ["R1", "R2", "R3"].enumerated() {
            for hour in [8, 9] {
                let m = 10 * k
                feed.trip("\(route)-\(hour)", route: route, [("A", String(format: "%02d:%02d:00", hour, m)),
                                                            ("B", String(format: "%02d:%02d:00", hour, m + 7)),
                                                            ("C", String(format: "%02d:%02d:00", hour, m + 15))])
            }
        }
        let fixture = try FeedFixture()
        let (timetable, _) = try fixture.timetable(feed.files)
        XCTAssertEqual(timetable.patterns.count, 1)
        let (router, _) = try fixture.router(feed.files)
        let found = try query(router, a, c, .departAt(utc(2, 8, 8)))
        XCTAssertEqual(found.best.rides.map(\.tripID), ["R2-8"])
        XCTAssertEqual(found.best.rides.map(\.lineName), ["2"])
    }
}
