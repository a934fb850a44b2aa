import Foundation
import XCTest
@testable import Planner

/// Issue 39 item 4: a walk the user set by hand to a stop the planner inferred long ago, next
/// to a segment a transit preset makes the ride, walks to a stop chosen for where that ride
/// goes: the lock is on the walk's mode, the stop is the planner's (seed 3 walked 6.7 km from
/// Rautatieasema to Hervanta P for a ride to Tampere-talo). On the scripted network of
/// `EditSequencePropertyTests`.
final class PresetUsersWalkToStopTests: ScriptedNetworkTestCase {

    /// Rautatieasema → Hervanta P → Tampere-talo P → Tampere-talo, all walked, the walks to and
    /// from the stops set by hand: Hervanta P was inferred when the plan started at Hervanta.
    func planWithTheUsersWalks() throws -> RoutePlan {
        let (rautatieasema, tampereTalo) = (places[1], places[3])
        return try RoutePlan(nodes: [PlanNode(place: rautatieasema), PlanNode(place: stops[2], isInferred: true),
                                     PlanNode(place: stops[3], isInferred: true), PlanNode(place: tampereTalo)],
                             modes: [.walk, .walk, .walk], timePreference: leaving)
            .changingMode(ofSegment: 0, to: .walk).changingMode(ofSegment: 2, to: .walk)
    }

    func testATransitPresetNextToTheUsersWalkWalksToAStopChosenForTheRide() async throws {
        let transit = try await planner.applyingPreset(.transit, to: try planWithTheUsersWalks())
        XCTAssertEqual(transit.modes, [.walk, .transit, .walk])
        XCTAssertTrue(transit.isLocked(segment: 0) && transit.isLocked(segment: 2), "the user's walks keep their locks")
        XCTAssertEqual(transit.nodes[1].place.name, stops[1].name, "not Hervanta P, 6.7 km away: the stop near Rautatieasema")
        XCTAssertEqual(transit.nodes[2].place.name, stops[3].name)
    }
}
