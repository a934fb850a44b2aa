import Foundation
import Synchronization

/// A thread of the store that owns one connection and runs the jobs of its queue until the
/// store closes. The writer has a queue of its own and takes every write waiting there at once,
/// to commit them together (`GroupCommit`); the readers share one queue and each takes one read
/// at a time (any free reader takes the next read).
///
/// Work runs here, never on the caller's thread: the async API resumes its continuation from
/// this thread, so no SQLite call (nor its fsync) ever holds a thread of Swift's cooperative
/// pool, of which a small machine has two.
final class StoreThread: @unchecked Sendable { // `connection` is only used on the thread
    enum Role: Sendable { case writer, reader }

    let role: Role
    /// The store's threads, to tell this store's threads from another store's.
    let group: ObjectIdentifier
    /// Only used on this thread (checked in debug builds by `StatementCache`).
    let connection: StatementCache
    private let name: String
    private let queue: JobQueue
    private let exited = DispatchSemaphore(value: 0)
    /// The nice value the thread sets itself to as it starts (nil: the starting thread's).
    private let nice: Int32?
    /// The writer's group commit (nil for a reader).
    let groupCommit: GroupCommit?

    init(role: Role, group: ObjectIdentifier, connection: StatementCache, queue: JobQueue, name: String, nice: Int32? = nil) {
        self.role = role
        self.group = group
        self.connection = connection
        self.queue = queue
        self.name = name
        self.nice = nice
        groupCommit = role == .writer ? GroupCommit() : nil
        connection.owner = self
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    private func run() {
        nameCurrentThread(name)
        // Linux keeps nice per thread: `who` 0 is this thread alone. Raising it needs no privilege.
        if let nice, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) < nice {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        }
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque()) // `run` holds self meanwhile
        while runNext() {}
        pthread_setspecific(Self.key, nil)
        connection.close() // the last connection to close checkpoints the WAL into the file
        exited.signal()
    }

    /// Runs the next jobs (the writer: every write waiting, as one group); false after a stop.
    /// The jobs (which may hold the store) are let go of when this returns, not kept while the
    /// thread waits for the next ones.
    private func runNext() -> Bool {
        let (jobs, stop) = queue.next(upTo: groupCommit == nil ? 1 : GroupCommit.limit)
        if let groupCommit {
            groupCommit.run(jobs, on: connection.database)
        } else {
            for job in jobs {
                job.run()
                job.finish()
            }
        }
        return !stop
    }

    /// Waits until the thread has taken its queue's stop and closed its connection.
    func join() { exited.wait() }

    /// The store thread running the caller, if any.
    static var current: StoreThread? {
        pthread_getspecific(key).map { Unmanaged<StoreThread>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Thread-specific data naming the store thread a thread is.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}

/// Jobs waiting for a store thread, oldest first. `stop` ends one thread: taken after the jobs
/// queued before it, so closing never drops a queued write.
final class JobQueue: Sendable {
    private let jobs = Mutex<[(any StoreJob)?]>([])
    private let waiting = DispatchSemaphore(value: 0)

    func push(_ job: any StoreJob) {
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    /// Makes one thread taking from this queue end after the jobs already queued.
    func stop() {
        jobs.withLock { $0.append(nil) }
        waiting.signal()
    }

    /// Jobs queued now and not taken yet (tests wait for their writes to be queued).
    var count: Int { jobs.withLock { $0.count } }

    /// The next jobs, waiting for the first: the oldest, and those queued behind it (up to
    /// `limit` in all) as far as the next stop. `stop` is true when a stop was taken.
    func next(upTo limit: Int) -> (jobs: [any StoreJob], stop: Bool) {
        waiting.wait()
        var taken: [any StoreJob] = []
        while true {
            guard let job = jobs.withLock({ $0.removeFirst() }) else { return (taken, true) }
            taken.append(job)
            // Each queued item signalled once: take more only while they are already there.
            guard taken.count < limit, waiting.wait(timeout: .now()) == .success else { return (taken, false) }
        }
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
