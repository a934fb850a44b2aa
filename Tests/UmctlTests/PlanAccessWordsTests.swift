@testable import umctl
import WireProtocol
import XCTest

/// `umctl plan access LEVEL` reads its words from `AccessLevel` itself: every level the wire
/// knows, in umctl's hyphenated spelling and in the wire's own.
final class PlanAccessWordsTests: XCTestCase {
    func access(_ words: [String]) throws -> AccessLevel? {
        (try CommandLineTool.command(words) as? PlanAccessCommand)?.params.access
    }

    func testEveryAccessLevelIsTakenInUmctlsSpellingAndInTheWiresSpellingAlike() throws {
        for level in AccessLevel.allCases {
            XCTAssertEqual(try access(["plan", "access", "7", level.rawValue.replacing("_", with: "-")]), level)
            XCTAssertEqual(try access(["plan", "access", "7", level.rawValue]), level, "as plan show --json prints it")
        }
    }

    func testAnUnknownLevelIsRefusedNamingEveryLevelWord() {
        XCTAssertThrowsError(try CommandLineTool.command(["plan", "access", "7", "stairs"])) { error in
            XCTAssertEqual("\(error)", #"LEVEL must be any, wheelchair, wheelchair-strict, got "stairs""#)
        }
    }

    func testTheHelpOfLevelNamesEveryLevel() {
        let help = PlanAccessCommand.spec.help
        for level in AccessLevel.allCases { XCTAssertTrue(help.contains(level.rawValue.replacing("_", with: "-")), help) }
    }
}
