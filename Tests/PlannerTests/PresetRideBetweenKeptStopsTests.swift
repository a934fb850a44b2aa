import Foundation
import XCTest
@testable import Planner

/// Issue 39 item 3: a transit preset on a stretch the user decided in (a lock or a pin keeps its
/// stops) rides between the two stops the planner inferred and walks to and from them, even
/// when an earlier preset made that ride a drive (a cycle): the walk to the first stop stays a
/// walk, so two rides never meet at a stop with nothing between (one vehicle trip in two
/// segments). On the scripted network of `EditSequencePropertyTests`.
final class PresetRideBetweenKeptStopsTests: ScriptedNetworkTestCase {

    /// Ratina → Keskustori P → (drive) → Pyynikki P → Pyynikki, the walk from Pyynikki P set by
    /// hand: the ride became a drive (a car preset kept the stops of the user's stretch), and
    /// Keskustori, which Keskustori P was chosen for, was moved to Ratina (seed 14).
    func planWithTheRideDriven() throws -> RoutePlan {
        let (ratina, pyynikki) = (places[4], places[5])
        return try RoutePlan(nodes: [PlanNode(place: ratina), PlanNode(place: stops[0], isInferred: true),
                                     PlanNode(place: stops[5], isInferred: true), PlanNode(place: pyynikki)],
                             modes: [.walk, .car, .walk], timePreference: leaving)
            .changingMode(ofSegment: 2, to: .walk)
    }

    func testATransitPresetRidesBetweenTheKeptStopsAndWalksToThem() async throws {
        let plan = try planWithTheRideDriven()
        XCTAssertTrue(plan.isLocked(segment: 2))
        let transit = try await planner.applyingPreset(.transit, to: plan)
        XCTAssertEqual(transit.modes, [.walk, .transit, .walk], "the walk to the stop stays a walk: not two rides meeting there")
        XCTAssertEqual(Set(transit.legs.compactMap { $0?.tripIDs }.flatMap { $0 }).count,
                       transit.legs.compactMap { $0?.tripIDs }.flatMap { $0 }.count, "no trip in two segments")
        XCTAssertEqual(transit.nodes[1].place.name, stops[4].name, "the stop chosen again from Ratina")
        XCTAssertTrue(transit.isLocked(segment: 2), "the user's walk")
    }

    func testATransitPresetRidesBetweenTheKeptStopsWhenTheRideWasCycled() async throws {
        // Rautatieasema → Keskustori P → (bike) → Hervanta P → Hervanta (seed 60).
        let (rautatieasema, hervanta) = (places[1], places[2])
        let plan = try RoutePlan(nodes: [PlanNode(place: rautatieasema), PlanNode(place: stops[0], isInferred: true),
                                         PlanNode(place: stops[2], isInferred: true), PlanNode(place: hervanta)],
                                 modes: [.walk, .bike, .walk], timePreference: leaving)
            .changingMode(ofSegment: 2, to: .walk)
        let transit = try await planner.applyingPreset(.transit, to: plan)
        XCTAssertEqual(transit.modes, [.walk, .transit, .walk])
        XCTAssertEqual(transit.nodes[1].place.name, stops[1].name, "the stop chosen again from Rautatieasema")
    }
}
