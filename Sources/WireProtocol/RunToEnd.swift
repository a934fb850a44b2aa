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
    try BodyRun(body).result()
}

/// One body's run and the semaphore its end is posted on. `@unchecked Sendable`: the task
/// writes `outcome` once before posting, and the caller reads it only after waiting, so the
/// two threads never touch it at the same time; the captures are the caller's, which is
/// blocked for as long as they are used, as in a synchronous call.
private final class BodyRun<T, Failure: Error>: @unchecked Sendable {
    private let body: nonisolated(nonsending) () async throws(Failure) -> T
    private var outcome: Result<T, Failure>?
    private let ended = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init(_ body: nonisolated(nonsending) @escaping () async throws(Failure) -> T) {
        self.body = body
        sem_init(ended, 0, 0)
    }

    deinit {
        sem_destroy(ended)
        ended.deallocate()
    }

    /// Starts the body on this thread and waits for its end: when it ended inline the
    /// semaphore is already posted and the wait takes nothing.
    func result() throws(Failure) -> T {
        Task.immediate { [self] in
            do throws(Failure) {
                outcome = .success(try await body())
            } catch {
                outcome = .failure(error)
            }
            sem_post(ended)
        }
        while sem_wait(ended) != 0 {} // only EINTR: a signal arrived while waiting
        return try outcome!.get()
    }
}
