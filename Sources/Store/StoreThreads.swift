import Foundation
import SQLite

/// The store's threads: one writer, which owns the write connection and so runs every write
/// in order, and a few readers, each with a connection of its own, which take reads from one
/// shared queue. Work reaches them in two ways: `run(on:_:) async` suspends the caller and
/// resumes it from the store's thread; the blocking `run(on:_:)` waits (for plain threads, and
/// for the store's own methods, which run at once when already on the right thread).
///
/// Closing (the last reference going) lets the threads finish what was queued, then closes the
/// connections and waits for them, so the file is checkpointed when the store is gone.
final class StoreThreads: Sendable {
    private let writerQueue: JobQueue
    private let readerQueue: JobQueue
    private let writer: StoreThread
    private let readers: [StoreThread]
    private let group: ObjectIdentifier

    init(writer writerConnection: Database, readers readerConnections: [Database], nice: Int32? = nil) {
        let writerQueue = JobQueue(), readerQueue = JobQueue()
        let group = ObjectIdentifier(writerQueue)
        self.writerQueue = writerQueue
        self.readerQueue = readerQueue
        self.group = group
        writer = StoreThread(role: .writer, group: group, connection: StatementCache(writerConnection),
                             queue: writerQueue, name: "store-writer", nice: nice)
        readers = readerConnections.enumerated().map { index, connection in
            StoreThread(role: .reader, group: group, connection: StatementCache(connection),
                        queue: readerQueue, name: "store-reader-\(index + 1)", nice: nice)
        }
        writer.start()
        for reader in readers { reader.start() }
    }

    deinit {
        writerQueue.stop()
        for _ in readers { readerQueue.stop() }
        // When the last reference goes on a store thread (a job held it), that thread ends by
        // itself once the job returns; waiting for it here would never end.
        let current = StoreThread.current
        for thread in [writer] + readers where thread !== current { thread.join() }
    }

    /// Runs `call` on the writer (or a reader) thread and resumes the caller with its result.
    /// The caller's thread only queues the job: it is free while the job waits and runs.
    func run<T: Sendable>(on role: StoreThread.Role, _ call: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue(role).push(AsyncStoreJob(call, continuation: continuation))
        }
    }

    /// Runs `body` with the connection of the writer (or a reader) thread: at once when the
    /// caller is that thread (a read on the writer thread uses the writer's connection), else
    /// queued there while the caller waits.
    func run<T>(on role: StoreThread.Role, _ body: (StatementCache) throws -> T) throws -> T {
        if let thread = StoreThread.current, thread.group == group, role == .reader || thread.role == .writer {
            return try body(thread.connection)
        }
        assert(withUnsafeCurrentTask { $0 == nil },
               "a blocking store call in a task holds a thread of the cooperative pool: call the async method (try await)")
        return try withoutActuallyEscaping(body) { body in
            let job = BlockingStoreJob<T>(body)
            queue(role).push(job)
            return try job.result()
        }
    }

    /// Writes queued and not yet taken by the writer.
    var queuedWrites: Int { writerQueue.count }

    /// The writer's group commits so far.
    var groupCommits: GroupCommit.Counts { writer.groupCommit?.committed ?? GroupCommit.Counts() }

    private func queue(_ role: StoreThread.Role) -> JobQueue {
        role == .writer ? writerQueue : readerQueue
    }
}
