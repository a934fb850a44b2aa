import Synchronization

/// A flag set from a task's cancellation handler and polled by blocking work on a thread of its
/// own (a `CPUWorkPool` job: an import, an update, a fetch), which cannot see the task's
/// cancellation. Only for that: a loop in Swift tasks ends by its task's cancellation alone
/// (`TaskHandleRulesTests`).
final class CancellationFlag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }
    func isSet() -> Bool { value.withLock { $0 } }
}
