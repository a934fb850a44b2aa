import Foundation
import Glibc
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
            nameCurrentThread(name)
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

/// Names the calling thread for the kernel (`top -H`, `/proc/…/task/…/comm`), cut to its 15
/// bytes: Foundation keeps `Thread.name` to itself on Linux, and Glibc's `pthread_setname_np`
/// is not visible to Swift.
private func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
