import Foundation
import WireProtocol
import XCTest

/// When the start time, a stay and a pin cannot all hold, the plan says which one gives (issue 28:
/// "a conflict is shown, naming which constraint gives").
final class ConstraintConflictTests: SharedTampereDaemonTestCase {
    func testAStayThatRunsPastAPinnedBusNamesThePinAsTheConstraintThatGives() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "Keskustori", "--mode", "transit",
                                        "--at", "2022-01-12T07:30"])
        let id = try id(created)
        let hervanta = try XCTUnwrap(nodes(created).firstIndex { typed($0) == Tampere.hervanta }) + 1
        let back = try XCTUnwrap(transitSegments(created).last) + 1
        _ = try harness.json(["plan", "stay", id, String(hervanta), "--until", "09:30"])
        let pinned = try harness.json(["plan", "pin", id, String(back), "09:45"])
        XCTAssertTrue(segments(pinned).allSatisfy { $0["missed_connection"] == .bool(false) }, "the pin can be made: \(pinned)")

        let stayed = try harness.json(["plan", "stay", id, String(hervanta), "--until", "09:55"])
        XCTAssertEqual(segments(stayed)[back - 1]["missed_connection"], .bool(true), "the pin gives: \(stayed)")
        let shown = try harness.umctl(["plan", "show", id]).stdout
        let name = try XCTUnwrap(nodes(stayed)[hervanta - 1]["name"]?.stringValue)
        XCTAssertTrue(shown.contains("the pin on segment \(back) gives; held: the start at 07:30, the stay at \(name) until 09:55"),
                      shown)
    }
}
