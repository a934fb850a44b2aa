import Foundation
import XCTest
@testable import Planner

/// Issue 39 item 3: the hops a move makes follow the walk rule (`Planner.movedHops`, asked of
/// the plan before the move, as the daemon asks it; `RoutePlan.movingNode(hops:)` applies them),
/// on the scripted network of `EditSequencePropertyTests` (walks at 80 m/min, buses every 10 min).
final class MovedHopsTests: ScriptedNetworkTestCase {
    let (keskustori, hervanta, ratina, pyynikki) = (EditSequencePropertyTests.places[0], EditSequencePropertyTests.places[2],
                                                    EditSequencePropertyTests.places[4], EditSequencePropertyTests.places[5])
    /// 45 m north of Ratina, and of Keskustori.
    let nearRatina = Place(name: "near Ratina", coordinate: Coordinate(latitude: 61.49220, longitude: 23.76390))
    let nearKeskustori = Place(name: "near Keskustori", coordinate: Coordinate(latitude: 61.49820, longitude: 23.76100))

    func testARideMovedNextToItsStartIsWalkedAndSaysWhy() async throws {
        let plan = try RoutePlan(nodes: [keskustori, ratina, hervanta].map { PlanNode(place: $0) }, modes: [.walk, .transit],
                                 timePreference: leaving)
        let hops = try await planner.movedHops(2, to: nearRatina, in: plan)
        XCTAssertEqual(hops.map(\.stretch), [1..<2])
        XCTAssertEqual(hops.map(\.mode), [.walk], "45 m: \(hops)")
        XCTAssertEqual(hops.first?.reason?.kind, .walkedNoSlower, "\(hops)")
        let moved = try plan.movingNode(at: 2, to: nearRatina, hops: hops)
        XCTAssertEqual(moved.modes, [.walk, .walk])
        // Judged over the stretch from Ratina to the moved node: its ground.
        XCTAssertEqual(moved.note(ofSegment: 1)?.mode, hops.first?.reason.map { reason in
            var grounded = reason
            grounded.ground = ModeNote.Ground(fromID: ratina.id, toID: nearRatina.id)
            return grounded
        }, "the walk says why, of the stretch it was judged over")
    }

    func testARideThroughTheStopsTheyInferredIsWalkedEndToEnd() async throws {
        let stops = [EditSequencePropertyTests.stops[0], EditSequencePropertyTests.stops[2]].map { PlanNode(place: $0, isInferred: true) }
        let plan = try RoutePlan(nodes: [PlanNode(place: keskustori)] + stops + [PlanNode(place: hervanta)],
                                 modes: [.walk, .transit, .walk], timePreference: leaving)
        let hops = try await planner.movedHops(3, to: nearKeskustori, in: plan)
        XCTAssertEqual(hops.map(\.stretch), [0..<3])
        let moved = try plan.movingNode(at: 3, to: nearKeskustori, hops: hops)
        XCTAssertEqual(moved.nodes.map(\.place.name), [keskustori.name, nearKeskustori.name], "its stops left out")
        XCTAssertEqual(moved.modes, [.walk])
    }

    func testAStretchTheUserLockedKeepsItsModeAndItsLock() async throws {
        let plan = try RoutePlan(nodes: [keskustori, ratina, hervanta].map { PlanNode(place: $0) }, modes: [.walk, .walk],
                                 timePreference: leaving).changingMode(ofSegment: 1, to: .transit)
        let hops = try await planner.movedHops(2, to: nearRatina, in: plan)
        XCTAssertEqual(hops, [], "the user's ride is theirs")
        let moved = try plan.movingNode(at: 2, to: nearRatina, hops: hops)
        XCTAssertEqual(moved.modes, [.walk, .transit])
        XCTAssertEqual(moved.lock(ofSegment: 1)?.mode, .transit, "still the user's ride at the next edit")
    }

    func testAWalkWithADriveAfterItStaysAWalk() async throws {
        // Keskustori to Pyynikki is 1.7 km: a bus is faster than the 21-min walk.
        let walks = try RoutePlan(nodes: [keskustori, ratina, hervanta].map { PlanNode(place: $0) }, modes: [.walk, .walk],
                                  timePreference: leaving)
        let ridden = try await planner.movedHops(1, to: pyynikki, in: walks)
        XCTAssertEqual(ridden.first.map { [$0.stretch: $0.mode] }, [0..<1: .transit], "\(ridden)")
        XCTAssertEqual(try walks.movingNode(at: 1, to: pyynikki, hops: ridden).modes.first, .transit)
        // With the car driven after it, a ride there would leave the car behind.
        let drives = try RoutePlan(nodes: [keskustori, ratina, hervanta].map { PlanNode(place: $0) }, modes: [.walk, .car],
                                   timePreference: leaving)
        let hops = try await planner.movedHops(1, to: pyynikki, in: drives)
        XCTAssertEqual(hops, [], "\(hops)")
        XCTAssertEqual(try drives.movingNode(at: 1, to: pyynikki, hops: hops).modes, [.walk, .car])
    }
}
