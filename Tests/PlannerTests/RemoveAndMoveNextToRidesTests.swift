import Foundation
import XCTest
@testable import Planner

/// Issue 39 item 3 after `plan remove` and `plan move`: one vehicle ride is never split across
/// two segments, and a drive after a ride stays the user's (the car is not at hand after a ride:
/// only a segment the user set to car drives there). On the scripted network of
/// `EditSequencePropertyTests` (each stop 200 m north-east of its place).
final class RemoveAndMoveNextToRidesTests: ScriptedNetworkTestCase {

    func testRemovingThePlaceBetweenTwoRidesJoinsThemIntoOneRide() async throws {
        // Hervanta → (Hervanta P → Keskustori P) → Keskustori → (ride) → Pyynikki P → Pyynikki (seed 17).
        let (hervanta, keskustori, pyynikki) = (places[2], places[0], places[5])
        let plan = try RoutePlan(nodes: [PlanNode(place: hervanta), PlanNode(place: stops[2], isInferred: true),
                                         PlanNode(place: stops[0], isInferred: true), PlanNode(place: keskustori),
                                         PlanNode(place: stops[5], isInferred: true), PlanNode(place: pyynikki)],
                                 modes: [.walk, .transit, .walk, .transit, .walk], timePreference: leaving)
        let removed = try plan.removingNode(at: 3, stopsAround: await planner.accessStops(aroundNeighboursOf: 3, in: plan))
        XCTAssertEqual(removed.nodes.map(\.place.name), [hervanta.name, stops[2].name, stops[5].name, pyynikki.name],
                       "no ride to Keskustori P and another from it")
        XCTAssertEqual(removed.modes, [.walk, .transit, .walk])
        XCTAssertFalse(removed.isLocked(segment: 1), "the joined ride is the planner's")
        let computed = try await planner.computeLegs(removed)
        XCTAssertEqual(computed.legs[1]?.tripIDs.count, 1)
    }

    /// Ratina → (Ratina P → Tampere-talo P) → Tampere-talo → (car, set by hand) → Pyynikki.
    func rideThenTheUsersDrive() throws -> RoutePlan {
        let (ratina, tampereTalo, pyynikki) = (places[4], places[3], places[5])
        return try RoutePlan(nodes: [PlanNode(place: ratina), PlanNode(place: stops[4], isInferred: true),
                                     PlanNode(place: stops[3], isInferred: true), PlanNode(place: tampereTalo),
                                     PlanNode(place: pyynikki)],
                             modes: [.walk, .transit, .walk, .transit], timePreference: leaving)
            .changingMode(ofSegment: 3, to: .car)
    }

    func testRemovingThePlaceBeforeTheUsersDriveAfterARideKeepsTheDriveTheUsers() async throws {
        let plan = try rideThenTheUsersDrive()
        let removed = try plan.removingNode(at: 3, stopsAround: await planner.accessStops(aroundNeighboursOf: 3, in: plan))
        XCTAssertEqual(removed.modes, [.walk, .transit, .car])
        XCTAssertEqual(removed.lock(ofSegment: 2)?.mode, .car, "the drive after the ride is the user's, as set")
    }

    func testRemovingAPlaceBetweenAWalkAndADriveOfThePlannersAfterARideWalks() throws {
        var plan = try rideThenTheUsersDrive()
        plan.locks = [:]  // the planner's drive (a preset before rides were kept from cars)
        let removed = try plan.removingNode(at: 3)
        XCTAssertEqual(removed.modes, [.walk, .transit, .walk], "the car stayed where the ride began")
    }

    func testMovingThePlaceAfterTheUsersDriveAfterARideKeepsTheDriveTheUsers() async throws {
        // Seed 58: the user's drive after the ride, its far end moved elsewhere.
        let plan = try rideThenTheUsersDrive()
        let rautatieasema = places[1]
        let moved = try plan.movingNode(at: 4, to: rautatieasema, stopsAround: try await planner.accessStops(around: rautatieasema),
                                        hops: try await planner.movedHops(4, to: rautatieasema, in: plan))
        XCTAssertEqual(moved.modes, [.walk, .transit, .walk, .car])
        XCTAssertEqual(moved.lock(ofSegment: 3)?.mode, .car, "still the user's drive")
    }
}

extension RemoveAndMoveNextToRidesTests {
    /// Ratina → (Ratina P → Pyynikki P) → Pyynikki → Keskustori, and with `andRatina` Ratina
    /// again before Keskustori.
    func rideToPyynikki(andRatina: Bool) throws -> RoutePlan {
        let (ratina, pyynikki, keskustori) = (places[4], places[5], places[0])
        return try RoutePlan(nodes: [PlanNode(place: ratina), PlanNode(place: stops[4], isInferred: true),
                                     PlanNode(place: stops[5], isInferred: true), PlanNode(place: pyynikki)]
                                 + (andRatina ? [PlanNode(place: ratina)] : []) + [PlanNode(place: keskustori)],
                             modes: [.walk, .transit, .walk, .car] + (andRatina ? [.car] : []), timePreference: leaving)
    }

    func testAnEditThatMakesAStretchFromAPlaceBackToItThroughInferredStopsOnlyIsRefused() throws {
        // Seed 47: removing Pyynikki left Ratina → (Ratina P → Pyynikki P) → Ratina, a ride away and
        // a walk back (1.7 km, set by hand later); seeds 11 27 51 inserted, seed 53 moved, so.
        let ratina = places[4]
        func refused(_ edit: () throws -> RoutePlan, _ what: String) {
            XCTAssertThrowsError(try edit(), what) { error in
                guard case .samePlaceTwice(let id, _) = error as? PlannerError else { return XCTFail("\(what): \(error)") }
                XCTAssertEqual(id, ratina.id, what)
            }
        }
        let twice = try rideToPyynikki(andRatina: true), once = try rideToPyynikki(andRatina: false)
        refused({ try twice.removingNode(at: 3) }, "remove Pyynikki")
        refused({ try once.movingNode(at: 3, to: ratina) }, "move Pyynikki to Ratina")
        refused({ try once.insertingNode(PlanNode(place: ratina), at: 3) }, "insert Ratina after Pyynikki P")
        // Right after its own stop it is a detour the recompute leaves out (issue 28), not refused.
        XCTAssertNoThrow(try once.insertingNode(PlanNode(place: ratina), at: 2))
        // A stay at a stop is a visit: the stretch goes somewhere. Another place is fine.
        XCTAssertNoThrow(try once.settingStay(.duration(600), atNode: 1).insertingNode(PlanNode(place: ratina), at: 2))
        XCTAssertNoThrow(try once.movingNode(at: 3, to: places[1]))
    }
}
