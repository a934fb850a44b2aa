import Foundation
import XCTest
@testable import Planner

/// Issue 39 item 4: a walk preset keeps a ride the user locked, and the ride of the planner's
/// next to it becomes a walk; that walk starts (ends) at a stop chosen for where it now goes,
/// not at the stop inferred for the place the plan went to before, as `plan mode` does
/// (`ModeSetByHandStopTests`). On the scripted network of `EditSequencePropertyTests`.
final class PresetWalkNextToUsersRideStopTests: XCTestCase {
    let planner = Planner(routing: EditSequencePropertyTests.Network(), clock: FixedClock(instant: EditSequencePropertyTests.dayStart))
    let leaving = TimePreference.departAt(EditSequencePropertyTests.dayStart.addingTimeInterval(3600))
    let places = EditSequencePropertyTests.places, stops = EditSequencePropertyTests.stops

    /// Hervanta → (Hervanta P → Pyynikki P, locked by the user) → Tampere-talo → Pyynikki: the
    /// ride alights at the stop chosen for Pyynikki, and Tampere-talo was inserted after it by transit.
    func planWithTheUsersRide() throws -> RoutePlan {
        try ModeSetByHandStopTests.planThroughTampereTalo(leaving: leaving).changingMode(ofSegment: 1, to: .transit)
    }

    func testAWalkPresetNextToTheUsersRideWalksFromAStopChosenForWhereItGoes() async throws {
        let plan = try planWithTheUsersRide()
        XCTAssertTrue(plan.isLocked(segment: 1))
        let walked = try await planner.applyingPreset(.walk, to: plan)
        XCTAssertEqual(walked.modes.prefix(3), [.walk, .transit, .walk], "the user's ride stays, walked to and from")
        XCTAssertTrue(walked.isLocked(segment: 1))
        XCTAssertTrue(walked.nodes[2].isInferred)
        let tampereTalo = places[3]
        XCTAssertEqual(walked.nodes[3].place.id, tampereTalo.id)
        XCTAssertNotEqual(walked.nodes[2].place.name, stops[5].name, "not Pyynikki P, 2.6 km from Tampere-talo")
        XCTAssertLessThan(walked.nodes[2].place.coordinate.distance(to: tampereTalo.coordinate), 700,
                          "a stop near Tampere-talo: \(walked.nodes[2].place.name)")
    }
}
