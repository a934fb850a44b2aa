@testable import umctl
import WireProtocol
import XCTest

/// `TerminalText.safe` over a whole answer: a clean answer is kept as it came (not rebuilt), and
/// a control anywhere, in a key or a value at any depth, is still replaced.
final class TerminalTextTests: XCTestCase {
    func testAControlAnywhereInAnAnswerIsReplacedAndACleanAnswerIsKept() {
        let clean: JSONValue = .object(["regions": .array([.object(["name": .string("tampere ✓"), "n": .number(3)])]), "up": .null])
        XCTAssertEqual(TerminalText.safe(clean), clean)

        let dirty: JSONValue = .object(["regions": .array([.object(["name\u{1B}": .string("x\u{9B}y"), "n": .number(3)])]),
                                        "ok": .string("fine\n")])
        XCTAssertEqual(TerminalText.safe(dirty), .object(["regions": .array([.object(["name\u{241B}": .string("x\u{FFFD}y"), "n": .number(3)])]),
                                                          "ok": .string("fine\u{240A}")]))
    }
}
