import FoundationEssentials
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

    /// An answer's line that shows no control and no escape lets its value through unlooked-at;
    /// a value written by the daemon's writer with any control in any string never does, so
    /// what that value holds is always replaced (checked for every scalar up to U+07FF, in a
    /// key and in a value).
    func testALineIsOnlyTakenAsSafeWhenNoStringParsedFromItHoldsAControl() throws {
        let scalars = (UInt32(0)...0x7FF).compactMap { Unicode.Scalar($0) } + ["\u{2028}", "\u{FEFF}", "\u{1F68C}"]
        for scalar in scalars {
            let text = "ä\(scalar)x"
            for value: JSONValue in [.object(["name": .string(text)]), .object([text: .array([.number(1), .null])])] {
                let line = JSONWriter.data(value)
                XCTAssertEqual(try JSONParser.parse(line), value)
                if TerminalText.isSafe(line: line) {
                    XCTAssertEqual(TerminalText.safe(value), value, "U+\(String(scalar.value, radix: 16)) let through")
                }
                XCTAssertEqual(TerminalText.safe(value, cameIn: line), TerminalText.safe(value))
            }
        }
    }

    func testALineWithABackslashOrAControlByteIsNotTakenAsSafe() {
        XCTAssertTrue(TerminalText.isSafe(line: Data(#"{"name":"tampere ✓ Hämeenkatu"}"#.utf8)))
        for line in [#"{"name":"a\u001b[2Jb"}"#, #"{"name":"say \"hi\""}"#, #"{"name":"a\nb"}"#, "{\"name\":\"a\u{1B}b\"}",
                     "{\"name\":\"a\u{85}b\"}", "{\"name\":\"a\u{7F}b\"}", "{\"name\":\"a\rb\"}"] {
            XCTAssertFalse(TerminalText.isSafe(line: Data(line.utf8)), line.debugDescription)
        }
    }

    /// The word-wise scan finds a marker byte (a control, DEL, the backslash, 0xC2) at every
    /// position of lines of every length up to three words, and none in text without one.
    func testTheWordWiseScanFindsAMarkerAnywhere() {
        for length in 0...24 {
            let plain = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            XCTAssertTrue(plain.withUnsafeBytes(TerminalText.holdsNoMarker), "\(length) plain bytes")
            for position in 0..<length {
                for marker: UInt8 in [0x00, 0x1B, 0x1F, 0x7F, 0x5C, 0xC2] {
                    var bytes = plain
                    bytes[position] = marker
                    XCTAssertFalse(bytes.withUnsafeBytes(TerminalText.holdsNoMarker), "\(marker) at \(position) of \(length)")
                }
                for other: UInt8 in [0x20, 0x7E, 0x80, 0xC3, 0xE2, 0xFF] {
                    var bytes = plain
                    bytes[position] = other
                    XCTAssertTrue(bytes.withUnsafeBytes(TerminalText.holdsNoMarker), "\(other) at \(position) of \(length)")
                }
            }
        }
    }
}
