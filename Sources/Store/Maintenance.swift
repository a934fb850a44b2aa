import Foundation

/// The store's own record and health, as store queries: `try store.read(Maintenance.integrityCheck())`.
public enum Maintenance {
    /// The highest applied migration version.
    public static func schemaVersion() -> StoreRead<Int> {
        StoreRead { db in try Migrator.applied(db.database).last?.version ?? 0 }
    }

    /// The migration record, oldest first.
    public static func appliedMigrations() -> StoreRead<[AppliedMigration]> {
        StoreRead { db in try Migrator.applied(db.database) }
    }

    /// `PRAGMA integrity_check`: `["ok"]` when the file is sound.
    public static func integrityCheck() -> StoreRead<[String]> {
        StoreRead { db in try db.database.integrityCheck() }
    }
}
