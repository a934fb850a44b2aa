import Executors
import Foundation
import Synchronization
import XCTest

/// The one thread primitive: an `ExecutorThread` runs an actor's calls and its own work on its
/// one named thread, in order; an `ExecutorPool`'s threads share one queue; stopping finishes
/// what was queued.
final class ExecutorThreadTests: XCTestCase {
    /// Which thread ran: the `Local` of the executor thread running the caller.
    private final class Marker: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    private static func runningOn() -> String? { currentExecutorLocal(as: Marker.self)?.name }

    /// An actor whose executor is the thread: each call runs there, and its caller awaits it.
    private actor Counter {
        let thread: ExecutorThread<Int, Marker>
        private var count = 0
        nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

        init(thread: ExecutorThread<Int, Marker>) { self.thread = thread }

        func increment() -> (count: Int, thread: String?) {
            count += 1
            return (count, ExecutorThreadTests.runningOn())
        }
    }

    func testAnActorOnAnExecutorThreadRunsEveryCallOnThatThreadInOrder() async throws {
        let thread = ExecutorThread<Int, Marker>(name: "test-serial", local: Marker("serial"), perform: { _, _ in })
        defer {
            thread.stop()
            thread.join()
        }
        let counter = Counter(thread: thread)
        XCTAssertNil(Self.runningOn(), "the test runs on the cooperative pool")
        var results: [(count: Int, thread: String?)] = []
        for _ in 0..<5 { results.append(await counter.increment()) }
        XCTAssertEqual(results.map(\.count), [1, 2, 3, 4, 5])
        XCTAssertEqual(Set(results.map(\.thread)), ["serial"])
    }

    func testWorkRunsInOrderAndStopFinishesWhatWasQueuedBeforeIt() {
        let ran = Mutex<[Int]>([])
        let closed = Mutex(false)
        let thread = ExecutorThread<Int, Marker>(name: "test-batch", local: Marker("batch"), batchLimit: 4,
                                                 perform: { work, _ in ran.withLock { $0 += work } },
                                                 onExit: { _ in closed.withLock { $0 = true } })
        for number in 1...10 { thread.submit(number) }
        thread.stop()
        thread.join()
        XCTAssertEqual(ran.withLock { $0 }, Array(1...10))
        XCTAssertTrue(closed.withLock { $0 }, "onExit ran before join returned")
    }

    func testAPoolRunsWorkOnItsThreadsAndAHandoffCarriesTheAnswerBack() {
        let pool = ExecutorPool<@Sendable (Marker) -> Void, Marker>(name: "test-pool", locals: [Marker("a"), Marker("b")],
                                                                      perform: { work, marker in work(marker) })
        let answers = (0..<6).map { _ in Handoff<String>() }
        for answer in answers { pool.submit { marker in answer.hand(marker.name) } }
        XCTAssertTrue(Set(answers.map { $0.wait() }).isSubset(of: ["a", "b"]))
        pool.stop()
        pool.join()
    }
}
