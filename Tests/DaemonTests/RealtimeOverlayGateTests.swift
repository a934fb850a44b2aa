@testable import Daemon
import Foundation
import Planner
import Synchronization
import XCTest

/// Every change of a region's realtime overlay passes one gate, the loop's claim checked
/// inside it (`LiveFeedBoard.changingOverlay`): `region.set` removing the feeds ends the loop,
/// then clears the overlay, and a loop's apply under way or about to start cannot land after
/// that clear and leave the removed feeds in force.
final class RealtimeOverlayGateTests: XCTestCase {
    private let board = LiveFeedBoard(clock: SystemClock())

    func testALoopWhoseClaimWasVoidedBeforeItsApplyChangesNothing() {
        let claim = board.claim(region: "tampere", states: [], lastGood: [:])
        XCTAssertEqual(board.changingOverlay(region: "tampere", claim: claim) { "applied" }, "applied")
        board.remove(region: "tampere")
        var ran = false
        let change: String? = board.changingOverlay(region: "tampere", claim: claim) { ran = true; return "applied" }
        XCTAssertNil(change)
        XCTAssertFalse(ran, "a void claim's change is not made")
        XCTAssertEqual(board.changingOverlay(region: "tampere", claim: nil) { "cleared" }, "cleared", "a clear needs no claim")
    }

    func testAClearAfterTheLoopEndedComesAfterTheApplyUnderWay() throws {
        let claim = board.claim(region: "tampere", states: [], lastGood: [:])
        let order = Mutex<[String]>([])
        let applying = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let applied = expectation(description: "the loop's apply ended")
        Thread.detachNewThread { [board] in
            _ = board.changingOverlay(region: "tampere", claim: claim) {
                applying.signal()
                _ = release.wait(timeout: .now() + 30) // until the clear below is waiting at the gate
                order.withLock { $0.append("apply") }
            }
            applied.fulfill()
        }
        XCTAssertEqual(applying.wait(timeout: .now() + 30), .success)
        board.remove(region: "tampere") // region.set with no feeds: the loop's end first
        let cleared = expectation(description: "the clear ended")
        Thread.detachNewThread { [board] in
            _ = board.changingOverlay(region: "tampere", claim: nil) { order.withLock { $0.append("clear") } }
            cleared.fulfill()
        }
        usleep(100_000) // the clear reaches the gate (or not yet: the order below holds either way)
        release.signal()
        wait(for: [applied, cleared], timeout: 30)
        XCTAssertEqual(order.withLock { $0 }, ["apply", "clear"], "the removed feeds are not left in force")
    }

    func testTwoRegionsChangeTheirOverlaysWithoutWaitingOnEachOther() {
        let first = board.claim(region: "tampere", states: [], lastGood: [:])
        let second = board.claim(region: "oulu", states: [], lastGood: [:])
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let tampereUnderWay = Mutex(false)
        let done = expectation(description: "tampere's change ended")
        Thread.detachNewThread { [board] in
            _ = board.changingOverlay(region: "tampere", claim: first) {
                tampereUnderWay.withLock { $0 = true }
                inside.signal()
                _ = release.wait(timeout: .now() + 30)
                tampereUnderWay.withLock { $0 = false }
            }
            done.fulfill()
        }
        XCTAssertEqual(inside.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(board.changingOverlay(region: "oulu", claim: second) { tampereUnderWay.withLock { $0 } }, true,
                       "oulu's change is made while tampere's is under way")
        release.signal()
        wait(for: [done], timeout: 30)
    }
}
