import Foundation
import Synchronization

/// The server's own threads (the accept loop, one I/O thread per connection). Their bodies
/// hold the dispatcher, and through its handlers the store; a thread counts as ended only
/// after its body is let go of, so once `allEnded()` returns nothing of theirs keeps the store
/// open. (A `Thread`'s closure is otherwise released whenever the thread object goes, which on
/// a busy machine can be after the daemon checks that the store is closed.)
final class ServerThreads: Sendable {
    private let live = Mutex(0)
    private let ended = Waiters()

    /// Runs `body` on a new thread named `name`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        live.withLock { $0 += 1 }
        let held = HeldBody(body)
        let thread = Thread { [self] in
            held.runOnce()
            live.withLock { $0 -= 1 }
            ended.notifyAll()
        }
        thread.name = name
        thread.start()
    }

    /// Returns once every thread started here has ended (or the waiting task is cancelled).
    func allEnded() async {
        await ended.wait { [self] in live.withLock { $0 == 0 } }
    }
}

/// A thread's body, dropped as soon as it has run.
private final class HeldBody: Sendable {
    private let body: Mutex<(@Sendable () -> Void)?>

    init(_ body: @escaping @Sendable () -> Void) { self.body = Mutex(body) }

    func runOnce() {
        guard let run = body.withLock({ held in defer { held = nil }; return held }) else { return }
        run()
    }
}
