import Foundation
import WireProtocol
import XCTest

/// Issue 39: `plan insert` without `--mode` gave both new hops the split segment's mode, so a
/// place inserted into a walk added walks where transit is much faster (a 28-min walk while the
/// bus takes 12). Each hop is walked only when walking is no slower, else it takes the ride, and
/// the answer says why; the user's `--mode` wins.
final class InsertedHopModeTests: SharedTampereDaemonTestCase {
    func modes(_ plan: JSONValue) -> [String] { segments(plan).compactMap { $0["mode"]?.stringValue } }

    func walkPlan() throws -> String {
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        XCTAssertEqual(modes(created), ["walk"], "\(created)")
        return try id(created)
    }

    func testAHopInsertedIntoAWalkRidesWhereTransitIsFasterAndTheAnswerSaysWhy() throws {
        let id = try walkPlan()
        let inserted = try harness.json(["plan", "insert", id, Tampere.tampereTalo, "--after", "1"])
        XCTAssertEqual(modes(inserted), ["transit", "transit"],
                       "a 37-min walk and a 1 h 30 min walk when buses take a fraction: \(inserted)")
        let notes = inserted["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertEqual(notes.count, 2, "each hop says why: \(inserted)")
        XCTAssertTrue(notes.allSatisfy { $0.contains("by transit: ") && $0.contains(" where walking takes ") }, "\(notes)")
        for (index, segment) in segments(inserted).enumerated() {
            let leg = try XCTUnwrap(segment["leg"], "segment \(index + 1) is computed: \(inserted)")
            XCTAssertEqual(leg["walking_is_no_slower"], .bool(false), "segment \(index + 1) rides only where that pays: \(leg)")
        }
        let shown = try harness.umctl(["plan", "insert", id, Tampere.railwayStation, "--after", "2"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        // Under the segment, once (the answer's "segment 2 …" line says the same: not repeated).
        XCTAssertTrue(shown.stdout.split(separator: "\n").contains { $0.contains("mode: ") && $0.contains("walking") },
                      "umctl shows why: \(shown.stdout)")
    }

    func testAShortHopIsWalkedWhenWalkingIsNoSlower() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = try id(created)
        // Ratina is a 10-minute walk from Keskustori: no bus gets there sooner door to door.
        let inserted = try harness.json(["plan", "insert", id, Tampere.ratina, "--after", "1"])
        XCTAssertEqual(modes(inserted).first, "walk", "\(inserted)")
        let notes = inserted["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertTrue(notes.contains { $0.hasPrefix("segment 1 walked: walking (") && $0.contains("is no slower than transit") },
                      "the walk says why: \(notes)")
    }

    func testTheUsersModeWins() throws {
        let id = try walkPlan()
        let inserted = try harness.json(["plan", "insert", id, Tampere.tampereTalo, "--after", "1", "--mode", "walk"])
        XCTAssertEqual(modes(inserted), ["walk", "walk"], "\(inserted)")
        XCTAssertNil(inserted["mode_notes"], "nothing was chosen for the user: \(inserted)")
    }
}
