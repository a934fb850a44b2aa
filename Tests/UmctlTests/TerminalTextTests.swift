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

    /// The byte scan that lets a clean text through finds exactly the controls `safe` replaces:
    /// C0, DEL and C1 (two bytes in UTF-8), alone or among other characters, and no other scalar.
    func testTheByteScanFindsExactlyTheControlScalars() {
        let scalars = (UInt32(0)...0x7FF).compactMap { Unicode.Scalar($0) } + ["\u{2028}", "\u{FEFF}", "\u{1F68C}", "é", "\u{A0}", "\u{C2}"]
        for scalar in scalars {
            let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            for text in [String(scalar), "ä\(scalar)x", "\u{C2}\(scalar)"] {
                XCTAssertEqual(TerminalText.isSafe(text), !control, "U+\(String(scalar.value, radix: 16)) in \(text.debugDescription)")
                XCTAssertEqual(TerminalText.isSafe(text, keepingNewlines: true), !control || scalar == "\n")
                XCTAssertEqual(TerminalText.safe(text) == text, !control)
            }
        }
    }
}
