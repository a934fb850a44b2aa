import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 39 ("what it says is true"): a ride's note gives the ride door to door and the walk of
/// one same stretch, and says which. Session 59's repro: after `plan move ID 4 Hämeenpuisto` in
/// `plan new Pyynikintori Keskustori Tampere-talo --mode transit --at 08:00`, the one-stop bus 8
/// between two inferred stops said "by transit: 1 min door to door from its departure … where
/// walking takes 8 min": the bus's minute against the walk of the whole hop from Pyynikintori to
/// Hämeenpuisto (08:02 → 08:08 door to door). On Tampere, through the real daemon and `compare`.
final class ModeNoteFiguresCoverOneStretchTests: SharedTampereDaemonTestCase {
    func testARideNotedForItsHopGivesTheHopsDoorToDoorAndNamesIt() throws {
        let harness = try harness
        let plan = try id(try harness.json(["plan", "new", "Pyynikintori", "Keskustori", "Tampere-talo",
                                            "--mode", "transit", "--at", "2022-01-12T08:00"]))
        let nodes = try harness.json(["plan", "show", plan])["nodes"]?.arrayValue ?? []
        let keskustori = try XCTUnwrap(nodes.firstIndex { $0["name"]?.stringValue == "Keskustori" && $0["inferred"] == .bool(false) },
                                       "\(nodes)")
        let moved = try harness.json(["plan", "move", plan, String(keskustori + 1), "Hämeenpuisto"])
        let read = try assertRideNotesCoverOneGround(ofPlan: plan, harness)
        XCTAssertTrue(read.contains { $0.hasPrefix("Pyynikintori to Hämeenpuisto") || $0.hasPrefix("Hämeenpuisto to Tampere-talo") },
                      "a hop's ride says it is of the hop from the user's place: \(read)")
        // The move's answer says what the plan shows, under the segment it names.
        let shown = segments(try harness.json(["plan", "show", plan])).map { $0["mode_note"]?.stringValue }
        for line in moved["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? [] where line.hasPrefix("segment ") {
            let number = try XCTUnwrap(Int(line.dropFirst(8).prefix { $0.isNumber }), line)
            XCTAssertEqual(shown[number - 1].map { "segment \(number) \($0)" }, line, "the answer says what plan show says")
        }
    }
}
