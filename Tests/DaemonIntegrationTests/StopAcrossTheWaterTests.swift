import Foundation
import WireProtocol
import XCTest

/// Trial 60 F8: from a lake-shore point whose nearest stop, Piispantalo, lies across the water
/// (a 40 min walk round the lake) and beyond the engine's reach, a new plan walked there; the
/// ride asked from the place boarded bus 13 at Hatanpään sairaala, the stop inferred for the
/// destination, a 12 min walk from the place, and the plan kept Piispantalo: "walk 0 min
/// Piispantalo → Hatanpään sairaala (1.2 km)", bus 13 missed by 27 min, and `compare` showed
/// transit with no arrival and no error. The ride's own stops become the plan's.
final class StopAcrossTheWaterTests: SharedTampereDaemonTestCase {
    let (from, to, at) = ("61.48582,23.74190", "61.47994,23.74236", "2022-01-12T09:30")

    func testAPlanFromAStopAcrossTheWaterWalksToTheStopItsRideBoardsAt() throws {
        let plan = try harness.json(["plan", "new", from, to, "--mode", "transit", "--at", at])
        let segments = try XCTUnwrap(plan["segments"]?.arrayValue, "\(plan)")
        XCTAssertTrue(segments.allSatisfy { $0["missed_connection"] != .bool(true) }, "no ride missed at creation: \(segments)")
        let ride = try XCTUnwrap(segments.firstIndex { $0["mode"] == .string("transit") }, "\(plan)")
        let nodes = try XCTUnwrap(plan["nodes"]?.arrayValue, "\(plan)")
        let boarding = try XCTUnwrap(segments[ride]["leg"]?["rides"]?.arrayValue?.first?["from"]?.stringValue, "\(segments[ride])")
        XCTAssertEqual(nodes[ride]["name"]?.stringValue, boarding, "the node before the ride is the stop it boards at: \(nodes)")
        let walks = segments[ride]["leg"]?["walks"]?.arrayValue ?? []
        XCTAssertFalse(walks.contains { $0["kind"] == .string("access") && ($0["distance_m"]?.numberValue ?? 0) > 0 },
                       "no walk inside the ride to another stop: \(walks)")
        let leaves = try XCTUnwrap(date(segments[ride]["leg"]?["departure"]), "\(segments[ride])")
        let walkedThere = try XCTUnwrap(date(nodes[ride]["time"]), "\(nodes)")
        XCTAssertLessThanOrEqual(walkedThere, leaves, "the walk gets there before the bus leaves")
        XCTAssertNotNil(date(nodes.last?["time"]), "the plan arrives: \(nodes)")
    }

    func testCompareGivesTheTransitOptionATimeOrAnError() throws {
        let compared = try harness.json(["compare", from, to, "--at", at])
        let transit = try XCTUnwrap(compared["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }, "\(compared)")
        if transit["error"] == .null {
            let arrival = try XCTUnwrap(date(transit["arrival"]), "transit without an error has an arrival: \(transit)")
            let first = try XCTUnwrap(date(transit["rides"]?.arrayValue?.first?["departure"]), "\(transit)")
            XCTAssertGreaterThanOrEqual(first, try XCTUnwrap(date(transit["departure"])), "\(transit)")
            XCTAssertGreaterThan(arrival, first, "\(transit)")
        }
    }
}
