import Foundation

/// A read of the store as a value, in the manner of GRDB's `read { db in }`: it runs against
/// the connection it is given, in one read transaction (a consistent snapshot). The store
/// decides where: `store.read(query)` on a reader thread, `store.readAtOnce(query)` on the
/// caller's thread. The queries are built by the table groups (`Plans`, `Places`, `History`,
/// `Reminders`, `Geofences`, `Maintenance`); only the store runs them.
///
/// ```swift
/// let plan = try await store.read(Plans.load(id))    // in async code: suspended, never blocked
/// let places = try store.read(Places.all())          // on a plain thread (tools, tests): waits
/// ```
public struct StoreRead<Value>: Sendable {
    let body: @Sendable (StatementCache) throws -> Value

    init(_ body: @escaping @Sendable (StatementCache) throws -> Value) { self.body = body }
}

/// A write of the store as a value: it runs against the writer's connection, all or nothing
/// (its own transaction, or a savepoint of the group it was committed with, `GroupCommit`).
/// Its input is checked inside: bad input throws `StoreError.invalidInput` and changes nothing.
///
/// ```swift
/// try await store.write(Places.save(place))
/// ```
public struct StoreWrite<Value>: Sendable {
    let body: @Sendable (StatementCache) throws -> Value

    init(_ body: @escaping @Sendable (StatementCache) throws -> Value) { self.body = body }
}
