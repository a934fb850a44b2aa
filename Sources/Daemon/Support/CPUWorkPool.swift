import Executors
import Foundation
import Synchronization

/// A few threads of its own for CPU-heavy or blocking work (drawing maps; `blocking`), so that
/// such work never holds a thread of Swift's shared pool, whose threads (one per core) answer
/// every other request.
/// At most `width` jobs run at once; the others wait, suspended, in the order they came.
///
/// ```swift
/// let pool = CPUWorkPool(name: "usefulmapd-render", width: 1)
/// let png = try await pool.run { try MapRenderer.render(...) }
/// ```
final class CPUWorkPool: Sendable {
    private struct State {
        var idleThreads = 0
        var threads = 0
    }

    /// Threads for work that blocks without being CPU-heavy or the store's (reading a passed
    /// pipe to its end, an import or update, a download): it waits here, never
    /// on the cooperative pool. The store's SQLite work has threads of its own (Store).
    static let blocking = CPUWorkPool(name: "usefulmapd-blocking", width: 4)

    /// Threads for realtime fetches: a region's feeds are fetched together, and feeds that hang
    /// until their timeout must hold back neither each other nor an import waiting on `blocking`.
    /// As wide as a region may have feeds; threads start only when needed.
    static let realtimeFetches = CPUWorkPool(name: "usefulmapd-realtime", width: RealtimeSettings.maximumFeeds)

    let name: String
    let width: Int
    private let state = Mutex(State())
    /// The jobs not yet taken, in the order they came: an idle thread waits on it.
    private let jobs = Mailbox<@Sendable () -> Void>()

    init(name: String, width: Int) {
        self.name = name
        self.width = max(1, width)
    }

    /// Runs `body` on one of the pool's threads and returns what it returns. A cancelled task's
    /// job still runs once started; one cancelled while it waits (its client hung up) throws
    /// `CancellationError` when its turn comes instead of running.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let cancelled = CancellationFlag() // read by the pool thread, which cannot see this task's cancellation
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                if Task.isCancelled { cancelled.set() }
                enqueue {
                    guard !cancelled.isSet() else { return continuation.resume(throwing: CancellationError()) }
                    do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        let startThread = state.withLock { state -> Bool in
            jobs.put(job)
            // A woken thread still counts as idle until it takes a job: start one more whenever
            // more jobs wait than threads do, so a burst does not queue behind one thread.
            guard jobs.count > state.idleThreads, state.threads < width else { return false }
            state.threads += 1
            return true
        }
        if startThread, !Executors.startThread(named: name, { [self] in work() }) {
            state.withLock { $0.threads -= 1 } // at the thread limit: the threads there take it
        }
    }

    /// A thread's loop: takes the oldest job, or waits for one (threads live as long as the daemon).
    /// Its work is heavy or may wait long: below the I/O threads (`HeavyWorkPriority`).
    private func work() {
        HeavyWorkPriority.current.lowerCurrentThread()
        while true {
            state.withLock { $0.idleThreads += 1 }
            let job = jobs.take()
            state.withLock { $0.idleThreads -= 1 }
            job()
        }
    }
}
