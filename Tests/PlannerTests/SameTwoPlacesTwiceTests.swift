import XCTest
@testable import Planner

/// A plan may go between the same two places twice (two bus rides between the same stops): each
/// segment's decisions stay with that segment (`SegmentKey.occurrence`) through every edit.
final class SameTwoPlacesTwiceTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)
    var planner: Planner { Planner(routing: FakeRoutingPort(legs: ComputeLegsTests.script), clock: clock) }

    /// Stop A → Stop B → Stop A → Stop B by bus, leaving at 08:00: rides at 08:05, 08:35 and 09:05.
    func twoRides() async throws -> RoutePlan {
        let plan = try RoutePlan(nodes: [Fixture.stopA, Fixture.stopB, Fixture.stopA, Fixture.stopB].map { PlanNode(place: $0) },
                                 modes: [.transit, .transit, .transit], timePreference: .departAt(Fixture.morning))
        return try await planner.computeLegs(plan)
    }

    func testTwoSegmentsBetweenTheSamePlacesHaveKeysOfTheirOwn() async throws {
        let plan = try await twoRides()
        XCTAssertEqual(plan.segmentKey(0), SegmentKey(fromID: Fixture.stopA.id, toID: Fixture.stopB.id, occurrence: 0))
        XCTAssertEqual(plan.segmentKey(2), SegmentKey(fromID: Fixture.stopA.id, toID: Fixture.stopB.id, occurrence: 1))
        XCTAssertEqual(plan.segmentKeys, (0..<3).map(plan.segmentKey))
        XCTAssertEqual((0..<3).map { plan.segmentIndex(of: plan.segmentKey($0)) }, [0, 1, 2])
        XCTAssertNil(plan.segmentIndex(of: SegmentKey(fromID: Fixture.stopA.id, toID: Fixture.stopB.id, occurrence: 2)))
    }

    func testAPinOnTheSecondRideBetweenTheSameStopsPinsOnlyIt() async throws {
        let pinned = try await twoRides().pinningDeparture(ofSegment: 2)
        XCTAssertEqual(pinned.pinnedSegmentIndices, [2])
        let computed = try await planner.computeLegs(pinned)
        XCTAssertEqual(computed.pinnedSegmentIndices, [2])
        XCTAssertEqual(computed.legs[2]?.departure, Fixture.at(65), "the pinned 09:05 ride")
        XCTAssertEqual(computed.legs[0]?.departure, Fixture.at(5), "the first ride is timed back from the pin, not pinned")
    }

    func testAPinOnTheSecondRideBetweenTheSameStopsStaysOnTheSecondAfterAnInsertBeforeTheFirst() async throws {
        let pinned = try await twoRides().pinningDeparture(ofSegment: 2)
        let inserted = try pinned.insertingNode(PlanNode(place: Fixture.home), at: 0, mode: .walk)
        XCTAssertEqual(inserted.pinnedSegmentIndices, [3])
        let computed = try await planner.computeLegs(inserted)
        XCTAssertEqual(computed.pinnedSegmentIndices, [3])
        XCTAssertEqual(computed.legs[3]?.departure, Fixture.at(65))
    }

    func testAPinOnTheSecondRideBetweenTheSameStopsStaysOnItWhenAnInsertIntoTheFirstMakesItTheOnlyOne() async throws {
        let pinned = try await twoRides().pinningDeparture(ofSegment: 2)
        // Stop A → Office → Stop B → Stop A → Stop B: the pinned ride is now the only one from A to B.
        let inserted = try pinned.insertingNode(PlanNode(place: Fixture.office), at: 1, mode: .walk)
        XCTAssertEqual(inserted.pinnedSegmentIndices, [3])
        XCTAssertEqual(inserted.pin(ofSegment: 3)?.segment, inserted.segmentKey(3))
        XCTAssertEqual(inserted.segmentKey(3).occurrence, 0)
        XCTAssertEqual(inserted.pin(ofSegment: 3)?.departure, Fixture.at(65))
        XCTAssertEqual(inserted.lock(ofSegment: 3)?.departure, Fixture.at(65), "the pin's lock goes with it")
        let computed = try await planner.computeLegs(inserted)
        XCTAssertEqual(computed.pinnedSegmentIndices, [3])
    }

    func testALockOnTheFirstRideDoesNotLockTheSecond() async throws {
        let locked = try await twoRides().changingMode(ofSegment: 0, to: .car)
        XCTAssertEqual((0..<3).map(locked.isLocked), [true, false, false])
        let computed = try await planner.computeLegs(locked)
        XCTAssertEqual(computed.modes, [.car, .transit, .transit])
        XCTAssertEqual((0..<3).map(computed.isLocked), [true, false, false])
    }

    func testALockStaysOnItsRideWhenARemovalMakesAnotherRideBetweenTheSameStopsBeforeIt() async throws {
        // Stop A → Office → Stop B → Stop A → Stop B, the last ride locked to the car.
        let plan = try RoutePlan(nodes: [Fixture.stopA, Fixture.office, Fixture.stopB, Fixture.stopA, Fixture.stopB]
                                    .map { PlanNode(place: $0) },
                                 modes: [.transit, .transit, .transit, .transit], timePreference: .departAt(Fixture.morning))
        let locked = try plan.changingMode(ofSegment: 3, to: .car)
        // Office goes: the first two rides merge into a new ride from Stop A to Stop B, before the locked one.
        let removed = try locked.removingNode(at: 1)
        XCTAssertEqual(removed.modes, [.transit, .transit, .car])
        XCTAssertEqual((0..<3).map(removed.isLocked), [false, false, true])
        XCTAssertEqual(removed.segmentKey(2).occurrence, 1)
    }

    func testAMoveThatLeavesTheSecondRideTheOnlyOneKeepsItsPin() async throws {
        let pinned = try await twoRides().pinningDeparture(ofSegment: 2)
        // Stop A → Office → Stop A → Stop B.
        let moved = try pinned.movingNode(at: 1, to: Fixture.office)
        XCTAssertEqual(moved.pinnedSegmentIndices, [2])
        XCTAssertEqual(moved.pin(ofSegment: 2)?.departure, Fixture.at(65))
    }

    func testASwapPutsTheFirstRidesLockOnTheLastRideBack() async throws {
        let swapped = try await twoRides().changingMode(ofSegment: 0, to: .car).swappingEnds()
        XCTAssertEqual(swapped.nodes.map(\.place.name), ["Stop B", "Stop A", "Stop B", "Stop A"])
        XCTAssertEqual(swapped.modes, [.transit, .transit, .car])
        XCTAssertEqual((0..<3).map(swapped.isLocked), [false, false, true])
    }

    func testADismissedProposalOfTheSecondRideIsNotTheFirstRides() async throws {
        var plan = try await twoRides().pinningDeparture(ofSegment: 2)
        let key = plan.segmentKey(2)
        plan.pending[key] = PendingSegmentUpdate(segment: key, selected: plan.legs[2]!,
                                                 proposal: .ride(Fixture.transit(departing: Fixture.at(80), minutes: 20)))
        let dismissed = try plan.dismissingPendingUpdate(ofSegment: 2)
        XCTAssertNotNil(dismissed.dismissed[key])
        XCTAssertNil(dismissed.dismissed[dismissed.segmentKey(0)])
        XCTAssertThrowsError(try dismissed.dismissingPendingUpdate(ofSegment: 0), "the first ride has no proposal")
        // After an insert into the first ride, the dismissal is still the (now only) pinned ride's.
        let inserted = try dismissed.insertingNode(PlanNode(place: Fixture.office), at: 1, mode: .walk)
        XCTAssertEqual(inserted.dismissed.keys.compactMap(inserted.segmentIndex(of:)), [3])
    }

    func testAKeyStoredWithoutAnOccurrenceIsTheFirst() throws {
        let old = Data(#"{"fromID":"a","toID":"b"}"#.utf8)
        XCTAssertEqual(try JSONDecoder().decode(SegmentKey.self, from: old), SegmentKey(fromID: "a", toID: "b", occurrence: 0))
        let second = SegmentKey(fromID: "a", toID: "b", occurrence: 1)
        XCTAssertEqual(try JSONDecoder().decode(SegmentKey.self, from: try JSONEncoder().encode(second)), second)
    }
}
