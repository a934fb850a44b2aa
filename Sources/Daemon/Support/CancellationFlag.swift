import Synchronization

/// A flag set from a task's cancellation handler and polled by blocking work on its own thread.
final class CancellationFlag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }
    func isSet() -> Bool { value.withLock { $0 } }
}
