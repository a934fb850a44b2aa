import Glibc
import Synchronization

/// The server's own threads (the accept loop, one I/O thread per connection). Their bodies
/// hold the dispatcher, and through its handlers the store; a body counts as ended only after
/// it is let go of, so once `allEnded()` returns nothing of theirs keeps the store open.
///
/// A thread whose body has ended parks (at most `maximumParked` of them, each for up to
/// `parkedSeconds`) and runs the next body started here, so that a new connection usually
/// costs no thread creation. A parked thread holds no body. New threads are created by the
/// caller of `start` (the accept loop), so they inherit its nice value, never a lowered one.
final class ServerThreads: @unchecked Sendable {
    /// Threads kept waiting for a body at most; more end when their body has.
    static let maximumParked = 4
    /// How long a parked thread waits for a body before it ends.
    static let parkedSeconds = 60

    private struct Work {
        let name: String
        let body: HeldBody
    }

    // Guarded by `lock`.
    /// Bodies started and not yet ended (handed over but not yet taken included).
    private var live = 0
    /// Threads waiting for a body.
    private var parked = 0
    /// Bodies waiting for a parked thread to take them.
    private var handedOver: [Work] = []
    /// Threads made so far.
    private var made = 0

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let bodyWaiting = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let ended = Waiters()

    init() {
        pthread_mutex_init(lock, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(bodyWaiting, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit { // only after every thread ended: each holds this object while it runs or parks
        pthread_cond_destroy(bodyWaiting)
        pthread_mutex_destroy(lock)
        bodyWaiting.deallocate()
        lock.deallocate()
    }

    /// Runs `body` on a parked thread, or on a new thread named `name`. When no thread can
    /// be made (the process's thread limit), `body` waits for the next thread whose body ends.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Work(name: name, body: HeldBody(body))
        let handedToParked = locked { () -> Bool in
            live += 1
            guard parked > handedOver.count else { return false }
            handedOver.append(work)
            pthread_cond_signal(bodyWaiting)
            return true
        }
        if handedToParked { return }
        if !spawn(work) { locked { handedOver.append(work) } }
    }

    /// Returns once every body started here has ended (or the waiting task is cancelled);
    /// parked threads may still be waiting for another.
    func allEnded() async {
        await ended.wait { [self] in locked { live == 0 } }
    }

    /// Threads waiting for a body now, and threads made so far (for tests).
    var parkedCount: Int { locked { parked } }
    var threadsMade: Int { locked { made } }

    // MARK: - Threads

    private func spawn(_ work: Work) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let start = Unmanaged.passRetained(ThreadStart(threads: self, work: work))
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { context in
            let start = Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue()
            start.threads.serve(start.work)
            return nil
        }, start.toOpaque())
        guard created == 0 else {
            start.release()
            return false
        }
        locked { made += 1 }
        return true
    }

    /// A thread's life: its first body, then whatever it takes while parked.
    private func serve(_ first: Work) {
        var work = first
        var name = ""
        while true {
            if work.name != name { // every connection's name is cut to the same 15 bytes
                name = work.name
                nameCurrentThread(name)
            }
            work.body.runOnce()
            locked { live -= 1 }
            ended.notifyAll()
            guard let next = nextWork() else { return }
            work = next
        }
    }

    /// A body handed over; nil when the thread should end (enough parked, or none came in time).
    private func nextWork() -> Work? {
        locked { () -> Work? in
            if !handedOver.isEmpty { return handedOver.removeFirst() }
            guard parked < Self.maximumParked else { return nil }
            parked += 1
            defer { parked -= 1 }
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            deadline.tv_sec += Self.parkedSeconds
            while handedOver.isEmpty {
                if pthread_cond_timedwait(bodyWaiting, lock, &deadline) == ETIMEDOUT, handedOver.isEmpty { return nil }
            }
            return handedOver.removeFirst()
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    private final class ThreadStart {
        let threads: ServerThreads
        let work: Work

        init(threads: ServerThreads, work: Work) {
            self.threads = threads
            self.work = work
        }
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
/// bytes: Glibc's `pthread_setname_np` is not visible to Swift.
private func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
