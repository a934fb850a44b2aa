import XCTest
@testable import Planner

final class RoutePlanTests: XCTestCase {
    let a = Fixture.home, b = Fixture.stopA, c = Fixture.office

    func testAPlanNeedsAtLeastTwoNodes() {
        XCTAssertThrowsError(try RoutePlan(nodes: [PlanNode(place: a)], modes: [])) { error in
            XCTAssertEqual(error as? PlannerError, .tooFewNodes(1))
        }
    }

    func testModesMustHaveOneEntryPerSegment() {
        XCTAssertThrowsError(try RoutePlan(nodes: [PlanNode(place: a), PlanNode(place: c)], modes: [.walk, .car]))
        XCTAssertThrowsError(try RoutePlan(nodes: [PlanNode(place: a), PlanNode(place: c)], modes: []))
    }

    func testAPlanWithAnInvalidCoordinateIsRejected() {
        let bad = Place(name: "bad", coordinate: Coordinate(latitude: 95, longitude: 0))
        XCTAssertThrowsError(try RoutePlan(nodes: [PlanNode(place: a), PlanNode(place: bad)], modes: [.walk])) { error in
            XCTAssertEqual((error as? PlannerError)?.code, "invalid_coordinate")
        }
    }

    func testANewPlanHasOneEmptyLegPerSegment() throws {
        let plan = try RoutePlan(nodes: [a, b, c].map { PlanNode(place: $0) }, modes: [.walk, .transit])
        XCTAssertEqual(plan.legs.count, 2)
        XCTAssertTrue(plan.legs.allSatisfy { $0 == nil })
        XCTAssertEqual(plan.segmentCount, 2)
    }

    func testRestoringChecksTheInvariantAndKeepsEverything() throws {
        let nodes = [a, b, c].map { PlanNode(place: $0) }
        XCTAssertThrowsError(try RoutePlan(restoring: nodes, modes: [.walk, .transit], legs: [nil],
                                           timePreference: .leaveNow, pace: .fast, locks: [:], pinned: nil, pending: [:]))
        let key = SegmentKey(fromID: a.id, toID: b.id)
        let plan = try RoutePlan(restoring: nodes, modes: [.walk, .transit], legs: [Fixture.walk(5), nil],
                                 timePreference: .departAt(Fixture.morning), pace: .fast,
                                 locks: [key: SegmentLock(mode: .walk)], pinned: nil, pending: [:])
        XCTAssertEqual(plan.legs[0], Fixture.walk(5))
        XCTAssertEqual(plan.pace, .fast)
        XCTAssertTrue(plan.isLocked(segment: 0))
    }

    func testEveryEditKeepsModesAndLegsOneShorterThanNodes() throws {
        var plan = try RoutePlan(nodes: [a, c].map { PlanNode(place: $0) }, modes: [.transit])
        let edits: [(RoutePlan) throws -> RoutePlan] = [
            { try $0.insertingNode(PlanNode(place: self.b), at: 1) },
            { try $0.insertingNode(PlanNode(place: Fixture.place("W", east: 5000)), at: 0) },
            { try $0.insertingNode(PlanNode(place: Fixture.place("Z", east: 20000)), at: $0.nodes.count) },
            { try $0.removingNode(at: 1) },
            { try $0.movingNode(at: 1, to: Fixture.place("M", east: 7000)) },
            { try $0.changingMode(ofSegment: 0, to: .car) },
            { $0.swappingEnds() },
            { $0.applyingPreset(.walk) },
            { $0.cyclingPace() },
            { $0.settingTimePreference(.arriveBy(Fixture.morning)) },
        ]
        for edit in edits {
            plan = try edit(plan)
            XCTAssertGreaterThanOrEqual(plan.nodes.count, 2)
            XCTAssertEqual(plan.modes.count, plan.nodes.count - 1)
            XCTAssertEqual(plan.legs.count, plan.nodes.count - 1)
        }
    }

    func testSegmentKeysUseTheEndsPlaceIDs() throws {
        let plan = try RoutePlan(nodes: [a, b, c].map { PlanNode(place: $0) }, modes: [.walk, .transit])
        XCTAssertEqual(plan.segmentKey(1), SegmentKey(fromID: b.id, toID: c.id))
        XCTAssertEqual(plan.segmentIndex(of: SegmentKey(fromID: b.id, toID: c.id)), 1)
        XCTAssertNil(plan.segmentIndex(of: SegmentKey(fromID: c.id, toID: b.id)))
    }
}
