import WireProtocol
import XCTest
@testable import umctl

/// The advice to read the plan again goes with a stale generation's conflict only: another
/// conflict (a listed option gone, another edit while choosing) has advice of its own.
final class StaleGenerationAdviceTests: XCTestCase {
    func testAStaleGenerationsConflictGetsTheAdvice() {
        let stale = WireError(.conflict, "plan 4 is at generation 7, not 6", data: .object(["generation": .number(7)]))
        let explained = StaleGenerationAdvice.explained(stale, plan: 4, expectedGeneration: 6)
        XCTAssertTrue(explained.message.hasSuffix("read the plan again (umctl plan show 4 prints its generation) and decide the edit from what it holds now"),
                      explained.message)
    }

    func testAnotherConflictKeepsItsOwnMessage() {
        let gone = WireError(.conflict, "segment 2 has no option leaving 08:10 any more: list the segment's options again (plan alternatives)")
        XCTAssertEqual(StaleGenerationAdvice.explained(gone, plan: 4, expectedGeneration: 6).message, gone.message)
    }

    func testAConflictWithoutAnExpectedGenerationIsAsItCame() {
        let stale = WireError(.conflict, "plan 4 is at generation 7, not 6", data: .object(["generation": .number(7)]))
        XCTAssertEqual(StaleGenerationAdvice.explained(stale, plan: 4, expectedGeneration: nil).message, stale.message)
    }
}
