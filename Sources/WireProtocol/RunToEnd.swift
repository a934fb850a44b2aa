import Glibc
import Synchronization

/// Runs an async body from synchronous code and returns what it returned (or throws what it
/// threw): how umctl's synchronous `main` calls the async `WireClient` without starting
/// Swift's executor. The body starts at once on the calling thread (`Task.immediate`) and
/// runs there until it first suspends; a body that never suspends (a `WireClient` call: its
/// socket is blocking) ends inline, with no thread started and no wait. A body that does
/// suspend (`Task.yield()`, a hop to an actor, a continuation resumed elsewhere) resumes on
/// the global executor while the calling thread waits for its end in a blocking `read` (no
/// semaphore: ThreadRulesTests keep those in the Executors module, which umctl does not load).
///
/// ```swift
/// let status = try runToEnd { try await client.call(Endpoints.status, Params.Empty()) }
/// ```
/// The calling thread is blocked until the body ends, so the body must not need that thread
/// again: called from the main thread, a body that hops to `@MainActor` never ends. A closure
/// written in `@MainActor` code (main.swift's top level is) is itself isolated to the main
/// actor and so does exactly that: call `runToEnd` from nonisolated code.
/// - throws: whatever the body threw (typed: a body that cannot throw needs no `try`).
public func runToEnd<T, Failure: Error>(_ body: nonisolated(nonsending) @escaping () async throws(Failure) -> T) throws(Failure) -> T {
    // The outcome goes through two pointers that only this call sees: a `Result<T, Failure>?`
    // (or a class generic over T) would make the runtime build its generic metadata on every
    // umctl start, which cost `umctl status` 4 % of its instructions.
    let value = UnsafeMutablePointer<T>.allocate(capacity: 1)
    let failure = UnsafeMutablePointer<Failure>.allocate(capacity: 1)
    defer {
        value.deallocate()
        failure.deallocate()
    }
    let succeeded = BodyRun {
        do throws(Failure) {
            value.initialize(to: try await body())
            return true
        } catch {
            failure.initialize(to: error)
            return false
        }
    }.succeeded()
    if succeeded { return value.move() }
    throw failure.move()
}

/// One body's run, and how its caller waits for the end of a body that suspended: with no
/// semaphore or lock, but a blocking `read` of a pipe the body's end writes to, made only then
/// (a body that ended inline costs no system call). `ended` is the one word both sides change:
/// `running`, `done`, or the pipe's write end once the caller waits. `@unchecked Sendable`:
/// the task writes `outcome` once before it sets `done` (releasing), and the caller reads it
/// only after it saw `done` or read the pipe, so the two threads never touch it at the same
/// time; the captures are the caller's, which waits for as long as they are used, as in a
/// synchronous call.
private final class BodyRun: @unchecked Sendable {
    private static let running: Int32 = -1
    private static let done: Int32 = -2

    private let body: nonisolated(nonsending) () async -> Bool
    private var outcome = false
    private let ended = Atomic<Int32>(BodyRun.running)

    init(_ body: nonisolated(nonsending) @escaping () async -> Bool) {
        self.body = body
    }

    /// Starts the body on this thread and, when it suspended, waits for its end. What the body
    /// returned.
    func succeeded() -> Bool {
        Task.immediate { [self] in
            outcome = await body()
            let waiter = ended.exchange(Self.done, ordering: .acquiringAndReleasing)
            if waiter >= 0 { // the caller waits on the pipe's read end: wake it
                var byte: UInt8 = 1
                while write(waiter, &byte, 1) < 0, errno == EINTR {}
            }
        }
        if ended.load(ordering: .acquiring) != Self.done { waitForTheEnd() }
        return outcome
    }

    /// Blocks the calling thread in `read` until the body's end writes (or, when it ended while
    /// the pipe was being made, not at all).
    private func waitForTheEnd() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { preconditionFailure("runToEnd: no pipe to wait on (errno \(errno))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } // a child started meanwhile gets neither end
        defer {
            close(ends[0])
            close(ends[1])
        }
        var expected = Self.running
        guard ended.compareExchange(expected: expected, desired: ends[1], ordering: .acquiringAndReleasing).exchanged else {
            return // it ended meanwhile
        }
        var byte: UInt8 = 0
        // Only EINTR (a signal arrived while waiting) repeats the read; the end writes one byte.
        while read(ends[0], &byte, 1) < 0, errno == EINTR {}
        expected = ended.load(ordering: .acquiring)
        precondition(expected == Self.done, "runToEnd: woken before the body's end")
    }
}
