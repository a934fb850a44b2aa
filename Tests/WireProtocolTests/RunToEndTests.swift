import Glibc
import WireProtocol
import XCTest

/// `runToEnd`: a body that never suspends ends on the calling thread; one that suspends still
/// ends, and its value or error comes back to the caller.
final class RunToEndTests: XCTestCase {
    private struct Refused: Error, Equatable { let word: String }

    private actor Counter {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    func testABodyThatNeverSuspendsRunsOnTheCallingThread() {
        let caller = pthread_self()
        let ranOnCaller = runToEnd { pthread_equal(pthread_self(), caller) != 0 }
        XCTAssertTrue(ranOnCaller)
    }

    func testABodyThatNeverSuspendsThrowsItsErrorToTheCaller() {
        XCTAssertThrowsError(try runToEnd { () async throws -> Int in throw Refused(word: "inline") }) {
            XCTAssertEqual($0 as? Refused, Refused(word: "inline"))
        }
    }

    func testABodyThatYieldsStillReturnsItsValue() {
        let value = runToEnd { () async -> Int in
            await Task.yield()
            return 42
        }
        XCTAssertEqual(value, 42)
    }

    func testABodyThatHopsToAnActorReturnsItsValue() {
        let counter = Counter()
        XCTAssertEqual(runToEnd { await counter.next() + counter.next() }, 3)
    }

    func testABodyResumedFromAnotherThreadReturnsItsValue() {
        let value = runToEnd {
            await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                Thread.detachNewThread { continuation.resume(returning: "resumed elsewhere") }
            }
        }
        XCTAssertEqual(value, "resumed elsewhere")
    }

    func testABodyThatSuspendsThrowsItsErrorToTheCaller() {
        XCTAssertThrowsError(try runToEnd { () async throws -> Int in
            await Task.yield()
            throw Refused(word: "after a suspension")
        }) {
            XCTAssertEqual($0 as? Refused, Refused(word: "after a suspension"))
        }
    }

    func testTheBodysChangesToCapturedStateAreSeenByTheCaller() {
        var lines: [String] = []
        runToEnd {
            lines.append("before")
            await Task.yield()
            lines.append("after")
        }
        XCTAssertEqual(lines, ["before", "after"])
    }

    /// The caller of a body that suspended waits in a `read`; a signal handled meanwhile (no
    /// `SA_RESTART`: the read ends with EINTR) does not end the wait before the body does.
    func testASignalWhileTheCallerWaitsDoesNotEndTheWaitEarly() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        sigaction(SIGUSR2, &action, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }
        let caller = pthread_self()
        let value = runToEnd {
            await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                Thread.detachNewThread {
                    for _ in 0..<20 {
                        pthread_kill(caller, SIGUSR2)
                        usleep(5_000)
                    }
                    continuation.resume(returning: "after the signals")
                }
            }
        }
        XCTAssertEqual(value, "after the signals")
    }
}
