import Synchronization

/// Tasks suspended until a condition that another thread makes true, without polling: the
/// thread that changes what the condition reads calls `notifyAll` afterwards. A waiter checks
/// the condition after it is registered, so a change between its check and its sleep is never
/// missed, and each waiter is resumed once (by `notifyAll`, its own check or its cancellation).
///
/// ```swift
/// await idle.wait { connection.inFlight == 0 }   // the waiting side
/// state.withLock { $0.running -= 1 }; idle.notifyAll()   // the side that makes it true
/// ```
final class Waiters: Sendable {
    private struct State {
        var next = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Returns once `condition` holds, or when the task is cancelled.
    func wait(until condition: @Sendable () -> Bool) async {
        while !condition(), !Task.isCancelled {
            let id = state.withLock { state in
                state.next += 1
                return state.next
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    state.withLock { $0.waiting[id] = continuation }
                    if condition() || Task.isCancelled { resume(id) }
                }
            } onCancel: {
                resume(id)
            }
        }
    }

    /// How many wait now (registered, not yet resumed): a test waits for a waiter to be asleep.
    var count: Int { state.withLock { $0.waiting.count } }

    /// Wakes every waiter to check its condition again.
    func notifyAll() {
        let woken = state.withLock { state in
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in woken { continuation.resume() }
    }

    private func resume(_ id: Int) {
        state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
    }
}
