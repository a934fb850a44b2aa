import Foundation
import SQLite
import Synchronization

/// The writer's group commit: the writes queued while one commits are run together in one
/// transaction, so that they share one commit and its fsync instead of paying one each.
///
/// Each job keeps its own all-or-nothing: its `write` runs as a savepoint inside the group's
/// transaction, so a job that throws rolls back only its own changes and gets its own error,
/// while the others commit. Every caller is answered only after the group's `COMMIT` returned,
/// that is once its change is durable. When the group cannot be committed (the disk is full,
/// an I/O error, SQLite rolled the transaction back under a failing job), nothing of it was
/// stored: every job runs again alone, in its own transaction, as if it had never been
/// grouped, and gets the outcome it would have got alone.
final class GroupCommit: Sendable {
    /// At most this many jobs share a transaction (a long group delays its first caller).
    static let limit = 64

    /// Groups of two or more jobs committed together, and the jobs in them (for tests).
    struct Counts: Sendable, Equatable {
        var groups = 0
        var jobs = 0
        var largest = 0
    }

    private let counts = Mutex(Counts())

    var committed: Counts { counts.withLock { $0 } }

    /// Runs `jobs` (on the writer thread, whose connection is `connection`) and answers them.
    func run(_ jobs: [any StoreJob], on connection: StatementCache) {
        let database = connection.database
        guard jobs.count > 1, !database.isInTransaction, (try? database.execute("BEGIN IMMEDIATE")) != nil else {
            return runAlone(jobs, on: connection)
        }
        for job in jobs {
            job.run(on: connection) // its `write` nests as a savepoint
            guard database.isInTransaction else { return runAlone(jobs, on: connection) } // SQLite rolled the group back
        }
        do {
            try database.execute("COMMIT")
        } catch {
            if database.isInTransaction { try? database.execute("ROLLBACK") }
            return runAlone(jobs, on: connection)
        }
        counts.withLock { counts in
            counts.groups += 1
            counts.jobs += jobs.count
            counts.largest = max(counts.largest, jobs.count)
        }
        for job in jobs { job.finish() }
    }

    /// Each job in its own transaction, answered as soon as it is done.
    private func runAlone(_ jobs: [any StoreJob], on connection: StatementCache) {
        for job in jobs {
            job.run(on: connection)
            job.finish()
        }
    }
}
