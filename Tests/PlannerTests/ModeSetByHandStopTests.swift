import Foundation
import XCTest
@testable import Planner

/// Issue 39 item 4: a ride set to walk by hand from (to) a stop the planner inferred for the
/// ride on its other side walks from a stop chosen for where it now goes, not from the stop
/// chosen for the place the plan went to before (which can mean walking back past the ride).
/// On the scripted network of `EditSequencePropertyTests` (each stop 200 m north-east of its place).
final class ModeSetByHandStopTests: ScriptedNetworkTestCase {

    func planThroughTampereTalo() throws -> RoutePlan { try Self.planThroughTampereTalo(leaving: leaving) }

    /// Hervanta → (Hervanta P → Pyynikki P) → Tampere-talo → Pyynikki: the ride alights at the
    /// stop chosen for Pyynikki, and Tampere-talo was inserted after it by transit.
    static func planThroughTampereTalo(leaving: TimePreference) throws -> RoutePlan {
        let places = EditSequencePropertyTests.places, stops = EditSequencePropertyTests.stops
        let (hervanta, tampereTalo, pyynikki) = (places[2], places[3], places[5])
        return try RoutePlan(nodes: [PlanNode(place: hervanta), PlanNode(place: stops[2], isInferred: true),
                                     PlanNode(place: stops[5], isInferred: true), PlanNode(place: tampereTalo), PlanNode(place: pyynikki)],
                             modes: [.walk, .transit, .transit, .transit], timePreference: leaving)
    }

    func testARideSetToWalkFromAnInferredStopWalksFromAStopChosenForWhereItGoes() async throws {
        let plan = try planThroughTampereTalo()
        let stopsAround = await planner.accessStops(aroundEndsOfSegment: 2, in: plan)
        let walked = try plan.changingMode(ofSegment: 2, to: .walk, stopsAround: stopsAround)
        XCTAssertEqual(walked.modes, [.walk, .transit, .walk, .transit])
        XCTAssertTrue(walked.isLocked(segment: 2), "the user's walk keeps its lock")
        XCTAssertTrue(walked.nodes[2].isInferred)
        let tampereTalo = places[3]
        XCTAssertNotEqual(walked.nodes[2].place.name, stops[5].name, "not Pyynikki P, 2.6 km from Tampere-talo")
        XCTAssertLessThan(walked.nodes[2].place.coordinate.distance(to: tampereTalo.coordinate), 700,
                          "a stop near Tampere-talo: \(walked.nodes[2].place.name)")
        let computed = try await planner.computeLegs(walked)
        XCTAssertEqual(computed.modes[2], .walk)
    }

    func testAStopWithNoneToTakeItsPlaceIsKeptAndTheWalkStays() throws {
        // Without the stops around Tampere-talo (they could not be asked), nothing else changes.
        let walked = try planThroughTampereTalo().changingMode(ofSegment: 2, to: .walk)
        XCTAssertEqual(walked.nodes[2].place.name, stops[5].name)
        XCTAssertEqual(walked.modes, [.walk, .transit, .walk, .transit])
    }
}

extension ModeSetByHandStopTests {
    func testARideSetToWalkBackToWhereTheRideBoardsIsLeftOutAndWalkedEndToEnd() async throws {
        // Keskustori → (Rautatieasema P → Pyynikki P) → Rautatieasema → Pyynikki: the walk set by
        // hand from Pyynikki P to Rautatieasema would walk 2.1 km back to where the ride boarded.
        let (keskustori, rautatieasema, pyynikki) = (places[0], places[1], places[5])
        let plan = try RoutePlan(nodes: [PlanNode(place: keskustori), PlanNode(place: stops[1], isInferred: true),
                                         PlanNode(place: stops[5], isInferred: true), PlanNode(place: rautatieasema),
                                         PlanNode(place: pyynikki)],
                                 modes: [.walk, .transit, .transit, .transit], timePreference: leaving)
        let walked = try plan.changingMode(ofSegment: 2, to: .walk,
                                           stopsAround: await planner.accessStops(aroundEndsOfSegment: 2, in: plan))
        XCTAssertEqual(walked.nodes.map(\.place.name), [keskustori.name, rautatieasema.name, pyynikki.name])
        XCTAssertEqual(walked.modes, [.walk, .transit])
        XCTAssertTrue(walked.isLocked(segment: 0), "the walk the user set")
        let computed = try await planner.computeLegs(walked)
        XCTAssertEqual(computed.modes, [.walk, .transit])
    }
}
