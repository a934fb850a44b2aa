import Foundation
import XCTest
@testable import Planner

/// Issue 39 items 3 and 4: in a stretch the user decided in (its stops kept), a ride of the
/// planner's whose walk on one side leads to a place that would walk to the ride's other stop
/// only takes the traveller away to walk back (Ratina → Ratina P → bus to Keskustori P → walk
/// back to Ratina, seed 50). A preset leaves that ride out: its far stop goes and the ride and
/// the walk become one walk from the stop the ride left from, as `plan mode` leaves out a ride
/// walked back (`ModeSetByHandStopTests`). On the scripted network of `EditSequencePropertyTests`.
final class PresetRideWalkedBackTests: ScriptedNetworkTestCase {

    /// Ratina → Ratina P (the walk set by hand) → (drive) → Keskustori P → Ratina → Keskustori:
    /// Ratina was inserted again after the stops chosen for Keskustori, the plan's old end.
    func planBackToRatina() throws -> RoutePlan {
        let (keskustori, ratina) = (places[0], places[4])
        return try RoutePlan(nodes: [PlanNode(place: ratina), PlanNode(place: stops[4], isInferred: true),
                                     PlanNode(place: stops[0], isInferred: true), PlanNode(place: ratina), PlanNode(place: keskustori)],
                             modes: [.walk, .car, .walk, .walk], timePreference: leaving)
            .changingMode(ofSegment: 0, to: .walk)
    }

    func testATransitPresetLeavesOutARideThatOnlyTakesTheTravellerAwayToWalkBack() async throws {
        let transit = try await planner.applyingPreset(.transit, to: try planBackToRatina())
        let (ratina, keskustori) = (places[4], places[0])
        // Without the ride, the walk to Ratina P and back to Ratina is a detour, left out as
        // every such walk is (`removingDetours`): the plan goes from Ratina to Keskustori.
        XCTAssertEqual(transit.nodes.filter { $0.place.id == ratina.id }.count, 1,
                       "no bus to Keskustori P to walk back to Ratina: \(transit.nodes.map(\.place.name))")
        XCTAssertEqual(transit.nodes.first?.place.id, ratina.id)
        XCTAssertEqual(transit.nodes.last?.place.id, keskustori.id)
        XCTAssertNotNil(transit.totalTravelTime, "every leg found: \(transit.modes)")
    }
}
