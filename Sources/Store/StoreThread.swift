import Foundation
import Synchronization

/// A thread of the store that owns one connection and runs the jobs of its queue, one after
/// the other, until the store closes. The writer has a queue of its own; the readers share one
/// (any free reader takes the next read).
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

    init(role: Role, group: ObjectIdentifier, connection: StatementCache, queue: JobQueue, name: String) {
        self.role = role
        self.group = group
        self.connection = connection
        self.queue = queue
        self.name = name
        connection.owner = self
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    private func run() {
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque()) // `run` holds self meanwhile
        while runNext() {}
        pthread_setspecific(Self.key, nil)
        connection.close() // the last connection to close checkpoints the WAL into the file
        exited.signal()
    }

    /// Runs the next job; false for a stop. The job (which may hold the store) is let go of
    /// when this returns, not kept while the thread waits for the next one.
    private func runNext() -> Bool {
        guard let job = queue.next() else { return false }
        job(connection)
        return true
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
    /// Gets the connection of the thread that runs it.
    typealias Job = @Sendable (StatementCache) -> Void

    private let jobs = Mutex<[Job?]>([])
    private let waiting = DispatchSemaphore(value: 0)

    func push(_ job: @escaping Job) {
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    /// Makes one thread taking from this queue end after the jobs already queued.
    func stop() {
        jobs.withLock { $0.append(nil) }
        waiting.signal()
    }

    /// The next job, waiting for one; nil for a stop.
    func next() -> Job? {
        waiting.wait()
        return jobs.withLock { $0.removeFirst() }
    }
}
