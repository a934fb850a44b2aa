import Executors
import Synchronization

/// A result one part of an import settles once and others block on: a branch's answer, or
/// "the routing database is in the staging directory". Waiting blocks the thread (imports run
/// on threads of their own, never on Swift's cooperative pool), and any number may wait: the
/// Executors module's `Gate`.
///
/// ```swift
/// let built = ImportPromise<Void>()
/// built.settle(.success(()))    // on the thread that built it
/// built.result()                // elsewhere: returns at once, or blocks until settled
/// ```
final class ImportPromise<Value: Sendable>: Sendable {
    private let outcome = Mutex<Result<Value, any Error>?>(nil)
    private let settled = Gate()

    init() {}

    /// A promise already kept (a step run on its own, when the streets already exist).
    convenience init(kept value: Value) {
        self.init()
        settle(.success(value))
    }

    /// Keeps or breaks the promise; only the first call counts.
    func settle(_ result: Result<Value, any Error>) {
        let first = outcome.withLock { outcome in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { settled.open() }
    }

    /// Blocks until settled.
    func result() -> Result<Value, any Error> {
        settled.wait()
        return outcome.withLock { $0! }
    }

    /// Runs `body` on a thread of its own, named `name`; the promise settles with what it returns
    /// or throws (with a failure at once when no thread can be made).
    static func onThread(_ name: String, _ body: @escaping @Sendable () throws -> Value) -> ImportPromise<Value> {
        let promise = ImportPromise<Value>()
        if !startThread(named: name, { promise.settle(Result { try body() }) }) {
            promise.settle(.failure(StreetsError.importFailed(phase: name, message: "no thread could be started (the process's thread limit)")))
        }
        return promise
    }
}
