import Executors
import Foundation
import Planner
import SQLite

/// The store's threads, from the one executor primitive (`Executors`): one writer thread, which
/// owns the write connection and so runs every write in order, taking every write waiting at
/// once to commit them together (`GroupCommit`); and a pool of readers, each with a connection
/// of its own, which take reads from one shared queue. Work (a body given the thread's
/// connection) reaches them in two ways: `run(on:_:) async` suspends the caller and resumes it
/// from the store's thread; the blocking `run(on:_:)` waits (for plain threads; a body already
/// on the right thread runs at once).
///
/// Work runs there, never on the caller's thread, so no SQLite call (nor its fsync) ever holds
/// a thread of Swift's cooperative pool, of which a small machine has two.
///
/// Closing (the last reference going) lets the threads finish what was queued, then closes the
/// connections and waits for them, so the file is checkpointed when the store is gone.
final class StoreThreads: Sendable {
    enum Role: Sendable { case writer, reader }

    private let writer: ExecutorThread<any StoreJob, StatementCache>
    private let readers: ExecutorPool<any StoreJob, StatementCache>
    private let groupCommit: GroupCommit

    init(writer writerConnection: Database, readers readerConnections: [Database], clock: any WallClock, nice: Int32? = nil) {
        let groupCommit = GroupCommit()
        self.groupCommit = groupCommit
        writer = ExecutorThread(name: "store-writer", nice: nice,
                                local: StatementCache(writerConnection, clock: clock, role: .writer),
                                batchLimit: GroupCommit.limit,
                                perform: { jobs, connection in groupCommit.run(jobs, on: connection) },
                                // The last connection to close checkpoints the WAL into the file.
                                onExit: { $0.close() })
        readers = ExecutorPool(name: "store-reader", nice: nice,
                               locals: readerConnections.map { StatementCache($0, clock: clock, role: .reader) },
                               perform: { job, connection in
                                   job.run(on: connection)
                                   job.finish()
                               },
                               onExit: { $0.close() })
    }

    deinit {
        writer.stop()
        readers.stop()
        // When the last reference goes on a store thread (a job held it), that thread ends by
        // itself once the job returns; waiting for it here would never end (`join` skips it).
        writer.join()
        readers.join()
    }

    /// Runs `body` with the connection of the writer (or a reader) thread and resumes the caller
    /// with its result. The caller's thread only queues the job: it is free while the job waits and runs.
    func run<T: Sendable>(on role: Role, _ body: @escaping @Sendable (StatementCache) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit(AsyncStoreJob(body, continuation: continuation), to: role)
        }
    }

    /// Runs `body` with the connection of the writer (or a reader) thread: at once when the
    /// caller is that thread (a read on the writer thread uses the writer's connection), else
    /// queued there while the caller waits.
    func run<T>(on role: Role, _ body: @escaping @Sendable (StatementCache) throws -> T) throws -> T {
        if let connection = writer.currentLocal ?? readers.currentLocal, role == .reader || connection.role == .writer {
            return try body(connection)
        }
        assert(withUnsafeCurrentTask { $0 == nil },
               "a blocking store call in a task holds a thread of the cooperative pool: call the async method (try await)")
        let job = BlockingStoreJob<T>(body)
        submit(job, to: role)
        return try job.result()
    }

    /// Writes queued and not yet taken by the writer.
    var queuedWrites: Int { writer.queuedCount }

    /// The writer's group commits so far.
    var groupCommits: GroupCommit.Counts { groupCommit.committed }

    private func submit(_ job: any StoreJob, to role: Role) {
        switch role {
        case .writer: writer.submit(job)
        case .reader: readers.submit(job)
        }
    }
}
