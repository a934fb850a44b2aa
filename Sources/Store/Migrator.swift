import Foundation
import SQLite

/// A migration recorded as applied in a database's `schema_migration` table.
public struct AppliedMigration: Sendable, Hashable {
    public let version: Int
    public let name: String
    public let checksum: String
    public let appliedAt: Date
}

/// Applies `migrations` in order, each in its own transaction, and records each one
/// (version, name, checksum, applied time) in `schema_migration`, a table the migrator
/// itself creates (it is not one of the migration files).
///
/// It refuses — changing nothing — a database with a migration it does not know
/// (`newerSchema`), one whose recorded checksum or name differs (`checksumMismatch`), and a
/// SQLite file with tables but no migration record (`foreignDatabase`). It never drops or
/// "repairs" anything.
struct Migrator {
    let migrations: [Migration]
    let path: String

    init(migrations: [Migration] = Migration.embedded, path: String) {
        self.migrations = migrations
        self.path = path
    }

    static let createRecordTable = """
        CREATE TABLE IF NOT EXISTS schema_migration (
            version     INTEGER PRIMARY KEY,
            name        TEXT NOT NULL,
            checksum    TEXT NOT NULL,
            applied_at  REAL NOT NULL
        )
        """

    // MARK: - Checking (reads only)

    /// The recorded migrations, after checking them against `migrations`.
    /// - throws: `StoreError.newerSchema`, `.checksumMismatch`, `.foreignDatabase`.
    @discardableResult
    func validate(_ db: Database) throws -> [AppliedMigration] {
        // One snapshot: another process may commit its first migration between two separate
        // reads, and "no record, but tables" would then look like someone else's database.
        try db.readTransaction { try validateInSnapshot(db) }
    }

    private func validateInSnapshot(_ db: Database) throws -> [AppliedMigration] {
        let hasRecord = try db.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migration'") != .integer(0)
        guard hasRecord else {
            let tables = try db.scalar("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
            if tables != .integer(0) { throw StoreError.foreignDatabase(path: path) }
            return []
        }
        let applied = try Self.applied(db)
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        let latestKnown = migrations.last?.version ?? 0
        for record in applied {
            guard let migration = known[record.version] else {
                throw StoreError.newerSchema(path: path, databaseVersion: applied.map(\.version).max() ?? record.version,
                                             knownVersion: latestKnown)
            }
            if migration.checksum != record.checksum || migration.name != record.name {
                throw StoreError.checksumMismatch(path: path, version: record.version, fileName: migration.fileName,
                                                  recorded: "\(record.name) \(record.checksum)",
                                                  embedded: "\(migration.name) \(migration.checksum)")
            }
        }
        return applied
    }

    static func applied(_ db: Database) throws -> [AppliedMigration] {
        try db.query("SELECT version, name, checksum, applied_at FROM schema_migration ORDER BY version") {
            AppliedMigration(version: $0.int(0), name: $0.string(1), checksum: $0.string(2),
                             appliedAt: Date(timeIntervalSinceReferenceDate: $0.double(3)))
        }
    }

    // MARK: - Applying

    /// Applies every missing migration; returns the versions it applied (empty when up to date).
    ///
    /// Safe against another process migrating the same file at the same time: each step
    /// re-reads the record inside its `BEGIN IMMEDIATE` transaction and skips a step the
    /// other process has already applied.
    @discardableResult
    func migrate(_ db: Database, now: () -> Date = Date.init) throws -> [Int] {
        let alreadyApplied = Set(try validate(db).map(\.version))
        var appliedNow: [Int] = []
        for migration in migrations where !alreadyApplied.contains(migration.version) {
            let didApply = try db.transaction { () throws -> Bool in
                try db.execute(Self.createRecordTable)
                let current = try validate(db)
                if current.contains(where: { $0.version == migration.version }) { return false }
                try db.execute(migration.sql)
                try db.execute("INSERT INTO schema_migration(version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                               [.int(migration.version), .text(migration.name), .text(migration.checksum),
                                .real(now().timeIntervalSinceReferenceDate)])
                return true
            }
            if didApply { appliedNow.append(migration.version) }
        }
        return appliedNow
    }
}
