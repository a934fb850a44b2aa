import Foundation
import WireProtocol
import XCTest

/// No plan walks to an inferred stop and straight back (issue 28), on Tampere through umctl:
/// the user's own place put again right after the stop the planner walked to makes P → X → P,
/// and the recompute leaves the detour out.
final class DetourRemovalTests: SharedTampereDaemonTestCase {
    /// Whether some inferred node has the same place on both sides (a there-and-back).
    func hasThereAndBack(_ plan: JSONValue) -> Bool {
        let all = nodes(plan)
        return all.indices.dropFirst().dropLast().contains { index in
            all[index]["inferred"] == .bool(true) && all[index - 1]["name"] != nil
                && all[index - 1]["name"] == all[index + 1]["name"] && typed(all[index - 1]) == typed(all[index + 1])
        }
    }

    func testAWalkToAnInferredStopAndStraightBackIsLeftOut() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let id = try id(created)
        let stop = try XCTUnwrap(nodes(created).dropFirst().first, "\(created)")
        XCTAssertEqual(stop["inferred"], .bool(true), "the stop walked to from Pyynikki: \(created)")
        let home = try XCTUnwrap(nodes(created).first?["name"]?.stringValue)
        let stopName = try XCTUnwrap(stop["name"]?.stringValue)

        // Pyynikki again right after its stop, on foot: Pyynikki → stop → Pyynikki.
        let edited = try harness.json(["plan", "insert", id, Tampere.pyynikki, "--after", "2", "--mode", "walk"])
        XCTAssertFalse(hasThereAndBack(edited), "no walk to the stop and straight back: \(edited)")
        XCTAssertEqual(nodes(edited).first?["name"]?.stringValue, home)
        XCTAssertEqual(nodes(edited).last.map(typed), Tampere.hervanta)
        XCTAssertFalse(nodes(edited).dropFirst().contains { typed($0) == Tampere.pyynikki }, "Pyynikki once, at the start: \(edited)")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertFalse(shown.stdout.contains("\(home) → \(stopName)") && shown.stdout.contains("\(stopName) → \(home)"),
                       "umctl shows no there-and-back: \(shown.stdout)")
        XCTAssertFalse(hasThereAndBack(try harness.json(["plan", "show", id])), "stored without it")
    }
}
