import Foundation
import WireProtocol
import XCTest

final class TextTrimmingTests: XCTestCase {
    /// `trimmingBlanks()` stands in for Foundation's `trimmingCharacters(in: .whitespaces)` in
    /// umctl, which loads no Foundation: the same answer for spaces, tabs, Unicode spaces and
    /// line breaks (kept).
    func testTrimmingBlanksAgreesWithFoundationsWhitespaces() {
        for text in ["", " ", "  a b  ", "\ta\t", "\u{00A0}Hervanta\u{3000}", "\u{2009}x\u{202F}", "\na\n", " \n a \n ",
                     "é\u{0301} ", " 東京 ", "\u{200B}zero width\u{200B}", "\r\n", "x"] {
            XCTAssertEqual(text.trimmingBlanks(), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
            XCTAssertEqual(text[...].trimmingBlanks(), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
        }
    }

    func testEveryCharacterOfTheBasicPlaneIsTrimmedAsFoundationTrimsIt() {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(scalar)a\(scalar)"
            XCTAssertEqual(text.trimmingBlanks(), text.trimmingCharacters(in: .whitespaces), String(value, radix: 16))
        }
    }
}
