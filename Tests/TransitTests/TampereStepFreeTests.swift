import Foundation
import Planner
@testable import Transit
import XCTest

/// Step-free transit on the real Nysse feed, whose trips.txt says `wheelchair_accessible` (477
/// trips 1, the others 0) and whose stops say no `wheelchair_boarding`. Which trips are
/// accessible is read from trips.txt here, not through the code under test.
final class TampereStepFreeTests: XCTestCase {
    private func accessibleTrips() throws -> (yes: Set<String>, unknown: Set<String>) {
        let rows = try tampereFeedRows("trips.txt")
        let yes = Set(rows.filter { $0["wheelchair_accessible"] == "1" }.compactMap { $0["trip_id"] })
        let unknown = Set(rows.filter { ["0", ""].contains($0["wheelchair_accessible"] ?? "") }.compactMap { $0["trip_id"] })
        XCTAssertEqual(yes.count, 477)
        return (yes, unknown)
    }

    private func journeys(_ router: TransitRouter, _ access: AccessNeed) throws -> [RouteLeg] {
        let from = try XCTUnwrap(router.stops.first { $0.id == "0805" }, "Keskustori A").coordinate
        let to = try XCTUnwrap(router.stops.first { $0.id == "3522" }, "Hervantakeskus E").coordinate
        return try router.journeys(from: from, to: to, timing: .departAt(localDate(2022, 1, 12, 7, 0)), pace: .normal,
                                   count: 8, access: access)
    }

    func testWithoutAnyStopSayingItsBoardingStrictFindsNoTransitAndWheelchairMarksEveryLegUnknown() throws {
        _ = try accessibleTrips()
        let router = try TampereTransitTests.imported.get().router
        XCTAssertThrowsError(try journeys(router, .wheelchairStrict)) { error in
            guard case .noRoute(let message, _)? = error as? RoutingError else { return XCTFail("\(error)") }
            // The stops are what say nothing (trial 61 F8: the answer blamed the trips, 477 of which say yes).
            XCTAssertTrue(message.hasPrefix("no stop in this feed is marked step-free (stops.txt wheelchair_boarding)"), message)
        }
        let legs = try journeys(router, .wheelchair)
        XCTAssertFalse(legs.isEmpty)
        for leg in legs { XCTAssertEqual(leg.accessibility, .unknown, "\(leg.tripIDs)") }
    }

    /// The same timetable as if every stop said `wheelchair_boarding` 1: strict then rides only
    /// the trips trips.txt marks 1, where the plain search takes trips marked 0 too.
    func testStrictRidesOnlyTripsTheFeedMarksAccessible() throws {
        let (yes, unknown) = try accessibleTrips()
        var timetable = try TampereTransitTests.imported.get().router.timetable
        for s in timetable.stops.indices { timetable.stops[s].wheelchairBoarding = AccessibilityValue.accessible }
        let router = TransitRouter(timetable: timetable, walking: StraightLineWalking())
        let strict = try journeys(router, .wheelchairStrict)
        XCTAssertFalse(strict.isEmpty)
        for leg in strict {
            for trip in leg.tripIDs { XCTAssertTrue(yes.contains(trip), "trip \(trip) is not marked 1 in trips.txt") }
            XCTAssertEqual(leg.accessibility, .stepFree)
        }
        let plain = try journeys(router, .any)
        XCTAssertTrue(plain.flatMap(\.tripIDs).contains(where: unknown.contains), "the plain search rides unmarked trips too")
        let wheelchair = try journeys(router, .wheelchair)
        XCTAssertTrue(wheelchair.contains { $0.accessibility == .unknown }, "the default level allows trips marked 0, marked unknown")
    }
}
