import Executors
import Synchronization

/// The server's own threads (the accept loop, one I/O thread per connection), started with the
/// Executors module's `startThread`. Their bodies hold the dispatcher, and through its handlers
/// the store; a body counts as ended only after it is let go of, so once `allEnded()` returns
/// nothing of theirs keeps the store open.
///
/// A thread whose body has ended parks (at most `maximumParked` of them, each for up to
/// `parkedSeconds`) on the `Mailbox` of bodies handed over, and runs the next body started
/// here, so that a new connection usually costs no thread creation. A parked thread holds no
/// body. New threads are created by the caller of `start` (the accept loop), so they inherit
/// its nice value, never a lowered one.
final class ServerThreads: Sendable {
    /// Threads kept waiting for a body at most; more end when their body has.
    static let maximumParked = 4
    /// How long a parked thread waits for a body before it ends.
    static let parkedSeconds = 60

    private struct Work: Sendable {
        let name: String
        let body: HeldBody
    }

    private struct Counts {
        /// Bodies started and not yet ended (handed over but not yet taken included).
        var live = 0
        /// Threads waiting for a body.
        var parked = 0
        /// Bodies put in `handedOver` and not yet taken.
        var handed = 0
        /// Threads made so far.
        var made = 0
    }

    private let counts = Mutex(Counts())
    /// Bodies waiting for a parked thread (or, when no thread could be made, for the next
    /// thread whose body ends). A body is put here only after `handed` counts it.
    private let handedOver = Mailbox<Work>()
    private let ended = Waiters()

    /// Runs `body` on a parked thread, or on a new thread named `name`. When no thread can
    /// be made (the process's thread limit), `body` waits for the next thread whose body ends.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Work(name: name, body: HeldBody(body))
        let handToParked = counts.withLock { counts -> Bool in
            counts.live += 1
            guard counts.parked > counts.handed else { return false }
            counts.handed += 1
            return true
        }
        if handToParked { return handedOver.put(work) }
        let made = startThread(named: name) { [self] in serve(work) }
        counts.withLock { counts in
            if made { counts.made += 1 } else { counts.handed += 1 }
        }
        if !made { handedOver.put(work) }
    }

    /// Returns once every body started here has ended (or the waiting task is cancelled);
    /// parked threads may still be waiting for another.
    func allEnded() async {
        await ended.wait { [self] in counts.withLock { $0.live == 0 } }
    }

    /// Threads waiting for a body now, and threads made so far (for tests).
    var parkedCount: Int { counts.withLock { $0.parked } }
    var threadsMade: Int { counts.withLock { $0.made } }

    // MARK: - Threads

    /// A thread's life: its first body, then whatever it takes while parked.
    private func serve(_ first: Work) {
        var work = first
        var name = work.name
        while true {
            if work.name != name { // every connection's name is cut to the same 15 bytes
                name = work.name
                nameCurrentThread(name)
            }
            work.body.runOnce()
            counts.withLock { $0.live -= 1 }
            ended.notifyAll()
            guard let next = nextWork() else { return }
            work = next
        }
    }

    /// A body handed over; nil when the thread should end (enough parked, or none came in time).
    private func nextWork() -> Work? {
        enum Next { case take, park, end }
        let next = counts.withLock { counts -> Next in
            if counts.handed > counts.parked { // a body no parked thread will take
                counts.handed -= 1
                return .take
            }
            guard counts.parked < Self.maximumParked else { return .end }
            counts.parked += 1
            return .park
        }
        switch next {
        case .take: return handedOver.take() // counted, so put or about to be
        case .end: return nil
        case .park: break
        }
        let work = handedOver.take(waitingUpTo: Double(Self.parkedSeconds))
        let mustTake = counts.withLock { counts -> Bool in
            counts.parked -= 1
            if work != nil {
                counts.handed -= 1
                return false
            }
            // Timed out just as a body was handed to the parked threads: one fewer is left to take it.
            guard counts.handed > counts.parked else { return false }
            counts.handed -= 1
            return true
        }
        return mustTake ? handedOver.take() : work
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
