import Dispatch
import Foundation
import Glibc
import Synchronization

/// Turns SIGTERM/SIGINT into an awaitable value (the default action is disabled first, so the
/// process is not killed before it has shut down).
/// `@unchecked`: `sources` is written once in `init` and only kept alive; all state is in the Mutex.
final class SignalWaiter: @unchecked Sendable {
    /// Kept alive for the process's lifetime; never touched after `init`.
    private let sources: [any DispatchSourceSignal]
    private let state = Mutex<(received: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))

    init(signals: [Int32]) {
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: .global()))
        }
        self.sources = sources
        for (source, number) in zip(sources, signals) {
            source.setEventHandler { [self] in deliver(number) }
            source.resume()
        }
    }

    private func deliver(_ number: Int32) {
        let waiter = state.withLock { state -> CheckedContinuation<Int32, Never>? in
            if state.received == nil { state.received = number }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: number)
    }

    /// The first signal received.
    func next() async -> Int32 {
        await withCheckedContinuation { continuation in
            let already = state.withLock { state -> Int32? in
                if let received = state.received { return received }
                state.waiter = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
