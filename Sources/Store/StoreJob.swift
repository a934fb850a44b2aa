import Executors
import Foundation
import Synchronization

/// Work queued for a store thread. `run` does it with the thread's connection and keeps the
/// outcome; `finish` hands the outcome to the caller and lets go of the work. The writer may
/// `run` a job a second time before `finish`: when the group transaction it ran in could not
/// commit, every job of the group runs again alone (nothing of the group was stored, so
/// nothing is done twice).
protocol StoreJob: AnyObject, Sendable {
    func run(on connection: StatementCache)
    func finish()
}

/// An async call: its caller is suspended on `continuation` until `finish`.
final class AsyncStoreJob<T: Sendable>: StoreJob, Sendable {
    /// The call until answered, and its outcome between `run` and `finish` (only the thread
    /// running the job touches them: the lock is never contended).
    private let state = Mutex<(call: (@Sendable (StatementCache) throws -> T)?, outcome: Result<T, Error>?)>((nil, nil))
    private let continuation: CheckedContinuation<T, Error>

    init(_ call: @escaping @Sendable (StatementCache) throws -> T, continuation: CheckedContinuation<T, Error>) {
        state.withLock { $0.call = call }
        self.continuation = continuation
    }

    func run(on connection: StatementCache) {
        guard let call = state.withLock({ $0.call }) else { preconditionFailure("a store call ran after it was answered") }
        let outcome = Result { try call(connection) }
        state.withLock { $0.outcome = outcome }
    }

    func finish() {
        // The call (and what it holds) goes first: a caller that then lets the store go really does.
        let outcome = state.withLock { state in
            defer { state = (nil, nil) }
            return state.outcome
        }
        guard let outcome else { preconditionFailure("a store call answered before it ran") }
        continuation.resume(with: outcome)
    }
}

/// A blocking call's body, run on a store thread while the caller waits on `result()` for the
/// outcome handed back (`Handoff`).
final class BlockingStoreJob<T>: StoreJob, @unchecked Sendable { // used by the one thread that runs it, then the waiter
    /// Let go of before the caller goes on.
    private var body: (@Sendable (StatementCache) throws -> T)?
    private var outcome: Result<T, Error>?
    private let done = Handoff<Result<T, Error>>()

    init(_ body: @escaping @Sendable (StatementCache) throws -> T) { self.body = body }

    func run(on connection: StatementCache) {
        guard let body else { preconditionFailure("a blocking store call ran after it was answered") }
        outcome = Result { try body(connection) }
    }

    func finish() {
        guard let outcome else { preconditionFailure("a blocking store call answered before it ran") }
        body = nil
        self.outcome = nil
        done.hand(outcome)
    }

    func result() throws -> T { try done.wait().get() }
}
