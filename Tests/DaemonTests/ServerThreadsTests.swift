@testable import Daemon
import Foundation
import Synchronization
import XCTest

/// Issue 26 (speed): a new connection's I/O thread is a parked one when one waits, not a new
/// thread; a body is still let go of as soon as it ends, so `allEnded` keeps meaning that
/// nothing of the server's threads holds the store.
final class ServerThreadsTests: XCTestCase {
    func testABodyStartedAfterAnotherEndedRunsOnTheParkedThread() async throws {
        let threads = ServerThreads()
        let ran = Mutex(0)
        threads.start(name: "test-first") { ran.withLock { $0 += 1 } }
        await threads.allEnded()
        try waitUntil("the first thread parks") { threads.parkedCount == 1 }
        threads.start(name: "test-second") { ran.withLock { $0 += 1 } }
        await threads.allEnded()
        XCTAssertEqual(ran.withLock { $0 }, 2)
        XCTAssertEqual(threads.threadsMade, 1, "the second body ran on the parked thread")
    }

    func testBodiesStartedTogetherRunTogether() async throws {
        let threads = ServerThreads()
        let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let count = ServerThreads.maximumParked + 2
        for number in 0..<count {
            threads.start(name: "test-\(number)") {
                arrived.signal()
                release.wait() // each body waits here: none may wait for another to end
            }
        }
        for _ in 0..<count {
            XCTAssertEqual(arrived.wait(timeout: .now() + 60), .success, "a body did not start while the others ran")
        }
        for _ in 0..<count { release.signal() }
        await threads.allEnded()
        XCTAssertEqual(threads.threadsMade, count)
        try waitUntil("the threads beyond the parked ones end") { threads.parkedCount == ServerThreads.maximumParked }
    }

    /// What a body holds (for a connection: the dispatcher, and through it the store) is let
    /// go of once `allEnded` returns, though the thread that ran it stays parked.
    func testABodyIsLetGoOfWhenItEndsThoughItsThreadParks() async throws {
        final class Held: Sendable {}
        let threads = ServerThreads()
        weak var watched: Held?
        do {
            let held = Held()
            watched = held
            threads.start(name: "test-holder") { withExtendedLifetime(held) {} }
        }
        await threads.allEnded()
        XCTAssertNil(watched)
    }

    /// A liveness bound for what another thread does, not a timing assertion.
    private func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else { return XCTFail("never happened: \(what)") }
            usleep(1000)
        }
    }
}
