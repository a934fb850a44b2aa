import Synchronization

/// A part of the daemon with a lifetime (issue 45; swift-service-lifecycle's `Service`, reduced):
/// `run()` does its work until its task is cancelled, then lets go of what it holds (the store
/// included) and returns. A `ServiceGroup` starts the daemon's services in dependency order
/// (each one's `start()` has returned before the next's begins) and cancels them in reverse.
///
/// ```swift
/// struct Ticker: DaemonService {
///     let name = "ticker"
///     func run() async throws {
///         while !Task.isCancelled { tick(); try? await Task.sleep(for: .seconds(60)) }
///     }
/// }
/// ```
protocol DaemonService: Sendable {
    /// What the log calls it.
    var name: String { get }
    /// What must be done before the services after it start (none by default).
    func start() async
    func run() async throws
}

extension DaemonService {
    func start() async {}
}

/// Returns when the calling task is cancelled (at once when it already is), without polling.
func untilCancelled() async {
    let waiting = Mutex<(cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))
    await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = waiting.withLock { state -> Bool in
                if state.cancelled { return true }
                state.continuation = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    } onCancel: {
        let continuation = waiting.withLock { state in
            state.cancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

/// Runs `windDown` to its end even though the calling task is cancelled, and returns then: a
/// part's `run` winds down after its cancellation, and a wind-down must not see that
/// cancellation (the server's grace is a sleep, a wait for threads to end returns when
/// cancelled, the blocking pool skips a cancelled caller's work). The task it runs in is awaited
/// here, never kept: it ends before `run` returns.
func outsideCancellation(_ windDown: @escaping @Sendable () async -> Void) async {
    await Task { await windDown() }.value
}
