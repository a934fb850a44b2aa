@testable import Daemon
import Synchronization
import XCTest

/// Waiting without polling: `Waiters` (shutdown waiting for the accept loop and for requests)
/// and `DaemonServer.wait(atMost:)` (the grace period as a race of two tasks).
final class WaitersTests: XCTestCase {
    func testAWaiterGoesOnOnlyAfterTheConditionBecameTrueAndWasNotified() async {
        let waiters = Waiters()
        let open = Mutex(false)
        let (checked, checking) = AsyncStream<Void>.makeStream()
        let waiting = Task {
            await waiters.wait {
                checking.yield()
                return open.withLock { $0 }
            }
            return open.withLock { $0 }
        }
        var iterator = checked.makeAsyncIterator()
        _ = await iterator.next() // the waiter looked, found it closed
        _ = await iterator.next() // and looked once more after registering
        waiters.notifyAll() // a wake-up with the condition still false: it sleeps again
        _ = await iterator.next()
        open.withLock { $0 = true }
        waiters.notifyAll()
        let sawOpen = await waiting.value
        XCTAssertTrue(sawOpen, "the waiter returned only once the condition held")
    }

    func testACancelledWaiterReturnsThoughTheConditionNeverHolds() async {
        let waiters = Waiters()
        let waiting = Task { await waiters.wait { false } }
        waiting.cancel()
        await waiting.value // returns: the cancellation resumed it
    }

    func testWaitAtMostEndsABodyThatNeverFinishesWhenTheTimeIsUp() async {
        let waiters = Waiters()
        let finished = Mutex(false)
        await DaemonServer.wait(atMost: 0.05) {
            await waiters.wait { false }
            finished.withLock { $0 = true }
        }
        XCTAssertTrue(finished.withLock { $0 }, "the body was cancelled, ran on and was waited for")
    }

    func testWaitAtMostReturnsAsSoonAsTheBodyIsDoneWithoutWaitingOutTheTime() async {
        let ran = Mutex(false)
        await DaemonServer.wait(atMost: 3600) { ran.withLock { $0 = true } }
        XCTAssertTrue(ran.withLock { $0 }) // an hour-long sleep was cancelled, not waited for
    }
}
