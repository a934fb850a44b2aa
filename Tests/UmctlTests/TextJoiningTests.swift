@testable import umctl
import XCTest

/// `joinedPlainly` (what `umctl status` joins its lines with) gives what `joined` gives.
final class TextJoiningTests: XCTestCase {
    func testJoiningPlainlyGivesWhatJoinedGives() {
        for texts in [[], [""], ["a"], ["a", "b"], ["", "", ""], ["tampere", "", "transit ✓"]] {
            for separator in ["", ", ", "\n"] {
                XCTAssertEqual(texts.joinedPlainly(separator: separator), texts.joined(separator: separator), "\(texts) \(separator)")
            }
        }
    }
}
