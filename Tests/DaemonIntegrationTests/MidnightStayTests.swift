import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 6: "until HH:MM" is the next such time after the traveller gets to the node,
/// shown with its day, whichever side of midnight the node is reached.
final class MidnightStayTests: SharedTampereDaemonTestCase {
    func testStayingUntilAClockTimePastMidnightOnANodeReachedBeforeItMeansTheNextNight() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, Tampere.tampereTalo,
                                        "--mode", "walk", "--at", "2022-01-12T23:45"])
        let id = try id(created)
        let reached = try XCTUnwrap(nodes(created)[1]["time"]?.stringValue, "\(created)")
        XCTAssertTrue(reached.hasPrefix("2022-01-12T23:"), "the walk gets to Ratina before midnight: \(reached)")

        let stayed = try harness.json(["plan", "stay", id, "2", "--until", "00:40"])
        XCTAssertEqual(nodes(stayed)[1]["departure"]?.stringValue, "2022-01-13T00:40:00+02:00",
                       "the next 00:40 after getting there, not 23 h before: \(nodes(stayed)[1])")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("00:40 +1d"), "shown with its day: \(shown.stdout)")

        // The same input on the next node, reached after midnight, is the same night's 00:40
        // or, reached later than that, the night after: never before the traveller is there.
        let next = try harness.json(["plan", "stay", id, "1", "--until", "23:50"])
        XCTAssertEqual(nodes(next)[0]["departure"]?.stringValue, "2022-01-12T23:50:00+02:00", "\(nodes(next)[0])")
        XCTAssertEqual(nodes(next)[1]["departure"]?.stringValue, "2022-01-13T00:40:00+02:00", "the stay kept its night: \(nodes(next)[1])")
    }
}
