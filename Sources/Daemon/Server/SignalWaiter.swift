import Executors
import Foundation
import Glibc
import Synchronization

/// The write end of the pipe `signalHandler` reports into; set once by `SignalWaiter.init`
/// before the handler is installed, never changed afterwards.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Runs in whichever thread the kernel picks; `write(2)` is async-signal-safe.
private let signalHandler: @convention(c) (Int32) -> Void = { number in
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
}

/// Turns SIGTERM/SIGINT into an awaitable value.
///
/// A real handler writes the signal's number into a pipe that one thread reads: whichever
/// thread the kernel delivers the signal to, it is caught and reported. (A dispatch signal
/// source on Linux needs the signal blocked in every thread; delivered to a thread that did
/// not block it, SIGTERM was now and then swallowed and the daemon never stopped.)
final class SignalWaiter: Sendable {
    private let state = Mutex<(received: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))

    init(signals: [Int32]) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("usefulmapd: cannot create the signal pipe (errno \(errno))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipeWriteEnd = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = signalHandler
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in signals { sigaction(number, &action, nil) }
        let readEnd = ends[0]
        let started = startThread(named: "usefulmapd-signals") { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 { deliver(Int32(byte)) } else if count < 0, errno != EINTR { return }
            }
        }
        guard started else { fatalError("usefulmapd: cannot start the signal thread") }
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
