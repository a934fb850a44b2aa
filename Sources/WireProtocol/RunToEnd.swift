import Glibc

/// Runs an async body from synchronous code and returns what it returned (or throws what it
/// threw): how umctl's synchronous `main` calls the async `WireClient` without starting
/// Swift's executor. The body starts at once on the calling thread (`Task.immediate`) and
/// runs there until it first suspends; a body that never suspends (a `WireClient` call: its
/// socket is blocking) ends inline, with no thread started and no wait. A body that does
/// suspend (`Task.yield()`, a hop to an actor, a continuation resumed elsewhere) resumes on
/// the global executor while the calling thread waits for its end.
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

/// One body's run and the semaphore its end is posted on. `@unchecked Sendable`: the task
/// writes `outcome` once before posting, and the caller reads it only after waiting, so the
/// two threads never touch it at the same time; the captures are the caller's, which is
/// blocked for as long as they are used, as in a synchronous call.
private final class BodyRun: @unchecked Sendable {
    private let body: nonisolated(nonsending) () async -> Bool
    private var outcome = false
    private let ended = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init(_ body: nonisolated(nonsending) @escaping () async -> Bool) {
        self.body = body
        sem_init(ended, 0, 0)
    }

    deinit {
        sem_destroy(ended)
        ended.deallocate()
    }

    /// Starts the body on this thread and waits for its end: when it ended inline the
    /// semaphore is already posted and the wait takes nothing. What the body returned.
    func succeeded() -> Bool {
        Task.immediate { [self] in
            outcome = await body()
            sem_post(ended)
        }
        while sem_wait(ended) != 0 {} // only EINTR: a signal arrived while waiting
        return outcome
    }
}
