import Foundation

/// Work queued for a store thread. `run` does it on the thread (where the store's methods find
/// the thread's connection) and keeps the outcome; `finish` hands the outcome to the caller and
/// lets go of the work. The writer may `run` a job a second time before `finish`: when the
/// group transaction it ran in could not commit, every job of the group runs again alone
/// (nothing of the group was stored, so nothing is done twice).
protocol StoreJob: AnyObject, Sendable {
    func run()
    func finish()
}

/// An async call: its caller is suspended on `continuation` until `finish`.
final class AsyncStoreJob<T: Sendable>: StoreJob, @unchecked Sendable { // used by the one thread that runs it
    private var call: (@Sendable () throws -> T)?
    private var outcome: Result<T, Error>?
    private let continuation: CheckedContinuation<T, Error>

    init(_ call: @escaping @Sendable () throws -> T, continuation: CheckedContinuation<T, Error>) {
        self.call = call
        self.continuation = continuation
    }

    func run() {
        guard let call else { preconditionFailure("a store call ran after it was answered") }
        outcome = Result { try call() }
    }

    func finish() {
        guard let outcome else { preconditionFailure("a store call answered before it ran") }
        // The call (and the store it holds) goes first: a caller that then lets the store go really does.
        call = nil
        self.outcome = nil
        continuation.resume(with: outcome)
    }
}

/// A blocking call's body and its result, passed to a store thread while the caller waits on
/// `result()` (the wait is what makes sharing them safe).
final class BlockingStoreJob<T>: StoreJob, @unchecked Sendable {
    /// Let go of before the caller goes on: the body must not outlive the call (it does not escape).
    private var body: ((StatementCache) throws -> T)?
    private var outcome: Result<T, Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping (StatementCache) throws -> T) { self.body = body }

    func run() {
        guard let body, let thread = StoreThread.current else { preconditionFailure("a blocking store job ran off a store thread") }
        outcome = Result { try body(thread.connection) }
    }

    func finish() {
        body = nil
        done.signal()
    }

    func result() throws -> T {
        done.wait()
        guard let outcome else { preconditionFailure("a store job signalled without a result") }
        return try outcome.get()
    }
}
