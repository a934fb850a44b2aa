import Foundation
import WireProtocol
import XCTest

/// Names from OpenStreetMap, GTFS or users can hold terminal escapes (issue 16): umctl shows
/// them as visible symbols, `--json` keeps them exact, and the daemon's log escapes them so a
/// client cannot forge a log line.
final class TerminalSafeOutputTests: XCTestCase {
    /// Clears the screen, sets the clipboard (OSC 52, ended by BEL), then returns the cursor.
    static let hostileName = "Koti\u{1B}[2J\u{1B}]52;c;cm0gLXJmIH4=\u{07}\rForged"

    /// A saved place's name may not hold control characters (issue 25), so the hostile text
    /// travels in its note, which may.
    func testEscapeSequencesInAPlaceNoteAreReplacedOnATerminalAndExactInJSON() throws {
        let harness = try startDaemon()
        XCTAssertEqual(try harness.umctl(["place", "save", Self.hostileName, "61.49780,23.76100"]).status, 1,
                       "a name with control characters is refused")
        XCTAssertEqual(try harness.umctl(["place", "save", "Koti", "61.49780,23.76100", "--note", Self.hostileName]).status, 0)

        // `script` runs umctl on a pseudo-terminal, as a person would.
        let command = "\(DaemonHarness.umctl) place list --socket \(harness.socketPath)"
        let onTerminal = try DaemonHarness.run("/usr/bin/script", ["-q", "-c", command, "/dev/null"], in: harness.directory)
        XCTAssertEqual(onTerminal.status, 0, onTerminal.stderr)
        let shown = onTerminal.stdout
        XCTAssertTrue(shown.contains("Koti␛[2J␛]52;c;cm0gLXJmIH4=␇␍Forged"), shown)
        XCTAssertFalse(shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "no ESC or BEL reaches the terminal")
        // The terminal itself turns each line end into CR LF; no other CR may appear.
        XCTAssertFalse(shown.replacingOccurrences(of: "\r\n", with: "\n").contains("\r"), "no bare CR reaches the terminal")

        let listed = try harness.json(["place", "list"])["places"]?.arrayValue ?? []
        XCTAssertEqual(listed.first?["note"]?.stringValue, Self.hostileName, "--json keeps the note exact")
    }

    func testDaemonErrorsShownByUmctlHaveTheirControlCharactersReplaced() throws {
        let harness = try startDaemon()
        let result = try harness.umctl(["place", "remove", Self.hostileName])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stderr.contains("Koti␛[2J"), result.stderr)
        XCTAssertFalse(result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x0D }, result.stderr)
    }

    func testRequestIDWithANewlineGivesOneEscapedLogLine() throws {
        let harness = try startDaemon()
        let client = try harness.client()
        let id = "7\n<0>forged emergency\r"
        let request = try WireCodec.encoder.encode(
            WireRequest(id: .string(id), method: "plan.show", params: .object(["id": .number(999_999)])))
        try client.send(request + Data("\n".utf8))
        guard case .response(let response) = try client.receive() else { return XCTFail("expected a response") }
        XCTAssertEqual(response.id, .string(id), "the id is echoed exactly")
        XCTAssertEqual(response.error?.code, "not_found")

        let lines = harness.log.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertFalse(lines.contains { $0.hasPrefix("<0>") }, harness.log)
        let failed = lines.filter { $0.contains("request failed") && $0.contains("method=plan.show") }
        XCTAssertEqual(failed.count, 1, harness.log)
        XCTAssertTrue(failed.first?.contains(#"request="7\n<0>forged emergency\r""#) ?? false, harness.log)
    }
}
