import Foundation
import Synchronization

/// The store's at-once reader: one `query_only` connection for the few reads a plain thread
/// must get now (a connection's I/O thread answering `status`). It runs on the caller's
/// thread, one caller at a time under its lock, and is never queued behind the store's other
/// reads or its writes (in WAL mode a read waits for no write).
final class AtOnceReader: @unchecked Sendable { // `connection` is only used under `lock`
    private let lock = Mutex(())
    private let connection: StatementCache

    init(_ connection: StatementCache) { self.connection = connection }

    func run<T>(_ body: (StatementCache) throws -> T) throws -> T {
        var outcome: Result<T, Error>?
        lock.withLock { _ in outcome = Result { try body(connection) } }
        guard let outcome else { preconditionFailure("the at-once read did not run") }
        return try outcome.get()
    }

    func close() {
        lock.withLock { _ in connection.close() }
    }
}
