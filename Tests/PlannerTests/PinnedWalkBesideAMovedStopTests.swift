import XCTest
@testable import Planner

/// Trial 49 finding 4a: a pinned walk out of a stop the planner inferred kept that stop when the
/// ride before it was asked again and alighted at another stop: the ride walked on from there to
/// the old stop, a stop no ride uses, for the pinned walk to start there. The stop is the one the
/// ride alights at; the pinned walk keeps its far end and its pin, asked from the new stop.
final class PinnedWalkBesideAMovedStopTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)
    static let stopC = Fixture.place("Stop C", east: 9_300, kind: .transitStop)

    /// Home → Stop A* → (ride) → Stop B* → (walk, pinned at 08:45) → Office, its legs emptied.
    func planWithAPinnedWalkOutOfAnInferredStop() async throws -> RoutePlan {
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                                         PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .transit, .walk])
        let computed = try await Planner(routing: FakeRoutingPort(legs: ComputeLegsTests.script), clock: clock).computeLegs(plan)
        return try await Planner(routing: FakeRoutingPort(legs: ComputeLegsTests.script), clock: clock)
            .pinning(computed, segment: 2, at: Fixture.at(45)).refreshing()
    }

    /// The ride, asked again, alights at Stop C and walks on to Stop B.
    static func rideAlightingAtStopC(_ query: LegQuery) throws -> RouteLeg {
        guard query.mode == .transit else { return try ComputeLegsTests.script(query) }
        var leg = try Fixture.timetable([5, 20, 35], minutes: 20, timing: query.timing)
        let departure = try XCTUnwrap(leg.departure), alighted = departure.addingTimeInterval(16 * 60)
        leg.rides = [TransitRide(lineName: "3", vehicle: "bus", tripID: "trip-\(departure.timeIntervalSince1970)",
                                 boarding: TransitStopCall(name: Fixture.stopA.name, coordinate: Fixture.stopA.coordinate, time: departure),
                                 alighting: TransitStopCall(name: stopC.name, coordinate: stopC.coordinate, time: alighted))]
        leg.walks = [TransitWalkStep(kind: .egress, fromName: stopC.name, from: stopC.coordinate, toName: query.to.name,
                                     to: query.to.coordinate, start: alighted, duration: 4 * 60, distance: 300)]
        return leg
    }

    func testAPinnedWalkOutOfAnInferredStopStartsWhereTheRideBeforeItAlights() async throws {
        let pinned = try await planWithAPinnedWalkOutOfAnInferredStop()
        XCTAssertEqual(pinned.pinnedSegmentIndices, [2])
        let plan = try await Planner(routing: FakeRoutingPort(legs: Self.rideAlightingAtStopC), clock: clock).computeLegs(pinned)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Stop A", "Stop C", "Office"], "the stop the ride alights at")
        XCTAssertTrue(plan.nodes[2].isInferred)
        XCTAssertFalse(plan.legs[1]?.walksToAnotherStop(at: .egress) ?? true, "no walk on to a stop no ride uses: \(String(describing: plan.legs[1]))")
        XCTAssertEqual(plan.pinnedSegmentIndices, [2], "the walk stays pinned")
        XCTAssertEqual(plan.pin(ofSegment: 2)?.departure, Fixture.at(45), "at the time pinned")
        XCTAssertNotNil(plan.legs[2], "the pinned walk is asked from the new stop")
        XCTAssertEqual(plan.pin(ofSegment: 2)?.leg, plan.legs[2], "its pin takes the walk from there")
    }
}
