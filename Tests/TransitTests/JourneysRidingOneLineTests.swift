import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Trial 60 F1: a line pin asks for the line's own journeys (`riding`), which another line's
/// dominate in an ordinary search, so they are never among its answers.
final class JourneysRidingOneLineTests: XCTestCase {
    private func utc(_ hour: Int, _ minute: Int) -> Date { localDate(2022, 3, 2, hour, minute, 0, zone: "UTC") }
    private let origin = MiniFeed.coordinate(km: 0), destination = MiniFeed.coordinate(km: 5)

    /// Line 1 leaves with line 2 and arrives later: every ride of line 1 is dominated.
    private func aSlowLineBesideAFastOne() -> MiniFeed {
        var feed = MiniFeed()
        feed.stop("O", km: 0)
        feed.stop("D", km: 5)
        feed.routes = [("R1", "1", 3), ("R2", "2", 3)]
        feed.trip("A1", route: "R1", [("O", "10:50:00"), ("D", "11:20:00")])
        feed.trip("A2", route: "R1", [("O", "11:00:00"), ("D", "11:30:00")])
        feed.trip("B1", route: "R2", [("O", "10:50:00"), ("D", "11:05:00")])
        feed.trip("B2", route: "R2", [("O", "11:00:00"), ("D", "11:15:00")])
        return feed
    }

    func testRidingALineAnotherLineDominatesFindsItsJourneys() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(aSlowLineBesideAFastOne().files)
        let ordinary = try router.journeys(from: origin, to: destination, timing: .departAt(utc(10, 45)), pace: .normal, count: 4)
        XCTAssertFalse(ordinary.contains { $0.rides.contains { $0.lineName == "1" } }, "line 1 is dominated: \(ordinary.map(\.tripIDs))")
        let riding = try router.journeys(from: origin, to: destination, timing: .departAt(utc(10, 45)), pace: .normal, count: 2,
                                         riding: "1")
        XCTAssertEqual(riding.map(\.tripIDs), [["A1"], ["A2"]])
        let byTheDeadline = try router.journeys(from: origin, to: destination, timing: .arriveBy(utc(11, 25)), pace: .normal, count: 1,
                                                riding: "1")
        XCTAssertEqual(byTheDeadline.map(\.tripIDs), [["A1"]], "the latest ride of line 1 arriving by 11:25")
    }

    func testRidingALineNoRouteHasIsNoRoute() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(aSlowLineBesideAFastOne().files)
        XCTAssertThrowsError(try router.journeys(from: origin, to: destination, timing: .departAt(utc(10, 45)), pace: .normal, count: 2,
                                                 riding: "9")) { error in
            XCTAssertEqual((error as? RoutingError)?.code, "no_route", "\(error)")
        }
    }
}
