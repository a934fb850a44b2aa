import Foundation
import XCTest
@testable import Planner

/// Issue 39 item 4: a segment between two stops the planner inferred, set to transit by hand,
/// rides between stops chosen for the places the traveller walks from and to now, not for the
/// places the plan had when they were inferred. On the scripted network of
/// `EditSequencePropertyTests` (each stop 200 m north-east of its place).
final class RideSetByHandStopTests: ScriptedNetworkTestCase {

    /// Tampere-talo → Hervanta P → (drive, set by hand) → Ratina P → Ratina: the drive's stops were
    /// inferred for a ride from Hervanta, and the origin has since moved to Tampere-talo (seed 48).
    func driveBetweenStopsAfterTheOriginMoved() throws -> RoutePlan {
        let (tampereTalo, ratina) = (places[3], places[4])
        let plan = try RoutePlan(nodes: [PlanNode(place: tampereTalo), PlanNode(place: stops[2], isInferred: true),
                                         PlanNode(place: stops[4], isInferred: true), PlanNode(place: ratina)],
                                 modes: [.walk, .car, .walk], timePreference: leaving)
        return try plan.changingMode(ofSegment: 1, to: .car)
    }

    func testADriveBetweenTwoStopsSetToTransitBoardsAtAStopChosenFromWhereTheWalkStarts() async throws {
        let plan = try driveBetweenStopsAfterTheOriginMoved()
        let around = [try await planner.accessStops(around: places[3]), try await planner.accessStops(around: places[4])]
        let ridden = try plan.changingMode(ofSegment: 1, to: .transit, stopsAround: around)
        XCTAssertEqual(ridden.modes, [.walk, .transit, .walk])
        XCTAssertEqual(ridden.nodes.map(\.place.name), [places[3].name, stops[3].name, stops[4].name, places[4].name],
                       "boards at Tampere-talo P, not at Hervanta P 6.3 km away")
        XCTAssertTrue(ridden.nodes[1].isInferred)
        XCTAssertEqual(ridden.lock(ofSegment: 1)?.mode, .transit, "the ride the user set keeps its lock")
        let computed = try await planner.computeLegs(ridden)
        XCTAssertEqual(computed.legs[1]?.rides.first?.boarding.name, stops[3].name)
        XCTAssertLessThan(computed.legs[0]?.distance ?? .infinity, 300)
    }

    func testTheStopsAroundAModeChangeIncludeThePlacesBeyondItsInferredEnds() async throws {
        let plan = try driveBetweenStopsAfterTheOriginMoved()
        let around = await planner.accessStops(forModeChangeOf: 1, in: plan)
        XCTAssertEqual(Set(around.map(\.place.name)), Set([stops[2].name, stops[4].name, places[3].name, places[4].name]))
        let ridden = try plan.changingMode(ofSegment: 1, to: .transit, stopsAround: around)
        XCTAssertEqual(ridden.nodes[1].place.name, stops[3].name)
    }

    /// The rule is about the stops the planner infers: a walk route the user chose among the
    /// segment's alternatives goes to its stop, and keeps it (seed 49: a 7.2 km walk chosen).
    func testAWalkRouteTheUserChoseKeepsItsStopWhenTheSegmentAfterItIsSetToTransit() async throws {
        let (hervanta, tampereTalo) = (places[2], places[3])
        let plan = try await planner.computeLegs(RoutePlan(
            nodes: [PlanNode(place: hervanta), PlanNode(place: stops[0], isInferred: true),
                    PlanNode(place: stops[3], isInferred: true), PlanNode(place: tampereTalo)],
            modes: [.walk, .walk, .walk], timePreference: leaving))
        let walks = try await planner.alternatives(for: plan, segment: 0, count: 3)
        let walk = try XCTUnwrap(walks.first)
        let chosen = try plan.choosingAlternative(walk, ofSegment: 0)
        XCTAssertTrue(chosen.isChosenRoute(segment: 0))
        let around = await planner.accessStops(forModeChangeOf: 1, in: chosen)
        let ridden = try chosen.changingMode(ofSegment: 1, to: .transit, stopsAround: around)
        XCTAssertEqual(ridden.nodes[1].place.name, stops[0].name, "the chosen walk's stop is kept")
        XCTAssertTrue(ridden.isChosenRoute(segment: 0), "and so is the route")
        XCTAssertEqual(ridden.modes, [.walk, .transit, .walk])
    }
}
