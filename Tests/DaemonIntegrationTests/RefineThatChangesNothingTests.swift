import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 4: `plan refine` that finds nothing faster leaves the plan as it was, its
/// generation too.
final class RefineThatChangesNothingTests: SharedTampereDaemonTestCase {
    func testRefiningAShortWalkThatNothingBeatsKeepsTheGeneration() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, "--mode", "walk",
                                        "--at", Tampere.morning])
        let id = try id(created)
        let refined = try harness.json(["plan", "refine", id])
        XCTAssertEqual(segments(refined).count, 1, "nothing beats a short walk: \(refined)")
        XCTAssertEqual(refined["generation"], created["generation"], "nothing changed, so no new generation: \(refined)")
        let shown = try harness.json(["plan", "show", id])
        XCTAssertEqual(shown["generation"], created["generation"], "\(shown)")
    }
}
