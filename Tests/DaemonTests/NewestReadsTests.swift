@testable import Daemon
import XCTest

/// `NewestReads`: of several reads of one plan under way, only the one begun last is kept.
final class NewestReadsTests: XCTestCase {
    func testAnOlderReadFinishingAfterANewerOneIsDropped() {
        var reads = NewestReads<Int64>()
        let older = reads.begin(7)
        let newer = reads.begin(7)
        XCTAssertTrue(reads.finish(newer, of: 7))
        XCTAssertFalse(reads.finish(older, of: 7))
    }

    func testAnOlderReadFinishingFirstIsDroppedTooBecauseANewerOneIsUnderWay() {
        var reads = NewestReads<Int64>()
        let older = reads.begin(7)
        let newer = reads.begin(7)
        XCTAssertFalse(reads.finish(older, of: 7))
        XCTAssertTrue(reads.finish(newer, of: 7))
    }

    func testReadsOfOtherPlansDoNotSupersedeEachOther() {
        var reads = NewestReads<Int64>()
        let first = reads.begin(1)
        let second = reads.begin(2)
        XCTAssertTrue(reads.finish(first, of: 1))
        XCTAssertTrue(reads.finish(second, of: 2))
    }

    func testACancelledPlansReadUnderWayIsNotKept() {
        var reads = NewestReads<Int64>()
        let ticket = reads.begin(3)
        reads.cancel(3)
        XCTAssertFalse(reads.finish(ticket, of: 3))
    }
}
