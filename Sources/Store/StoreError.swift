import SQLite

/// Why the store refused or failed. `code` is stable snake_case for the wire; `description`
/// is a sentence for a person and names the file when the file is the problem.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No saved place / plan with this name or id.
    case notFound(String)
    /// A saved place with this name or this place already exists.
    case duplicate(String)
    /// The caller passed something the store will not keep (empty name, a directions link, NaN …).
    case invalidInput(String)
    /// The database has migrations this binary does not know: it was written by a newer Useful Map.
    case newerSchema(path: String, databaseVersion: Int, knownVersion: Int)
    /// An applied migration's recorded checksum (or name) differs from the embedded file's.
    case checksumMismatch(path: String, version: Int, fileName: String, recorded: String, embedded: String)
    /// The file exists but is not a SQLite database.
    case notADatabase(path: String)
    /// The file is a SQLite database but damaged.
    case corruptDatabase(path: String, detail: String)
    /// A SQLite database that was not created by Useful Map (tables but no migration record).
    case foreignDatabase(path: String)
    /// The directory cannot be written (SQLite must create `-wal`/`-shm` files beside the database).
    case readOnlyDirectory(path: String, directory: String)
    /// The file or its directory could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// A stored value could not be decoded (a damaged blob or an unknown enum value).
    case corruptRecord(String)
    /// The disk (or quota) holding the database is full; the transaction was rolled back.
    case diskFull(path: String)
    /// Any other SQLite failure, with its evidence.
    case database(SQLiteError)

    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .duplicate: "duplicate"
        case .invalidInput: "invalid_input"
        case .newerSchema: "newer_schema"
        case .checksumMismatch: "checksum_mismatch"
        case .notADatabase: "not_a_database"
        case .corruptDatabase: "corrupt_database"
        case .foreignDatabase: "foreign_database"
        case .readOnlyDirectory: "read_only_directory"
        case .cannotOpen: "cannot_open"
        case .corruptRecord: "corrupt_record"
        case .diskFull: "disk_full"
        case .database: "database_error"
        }
    }

    /// The sentence a client is told: like `description`, without SQL text or the database's
    /// path (those stay in the daemon's log).
    public var clientMessage: String {
        switch self {
        case .diskFull:
            "the disk holding the data directory is full; nothing was changed. Free some space and try again."
        case .database(let error):
            "the database could not complete the request (\(error.code)); nothing was changed"
        case .newerSchema, .checksumMismatch, .notADatabase, .corruptDatabase, .foreignDatabase,
             .readOnlyDirectory, .cannotOpen:
            "the database cannot be used (\(code)); see the daemon's log"
        case .notFound, .duplicate, .invalidInput, .corruptRecord: description
        }
    }

    public var description: String {
        switch self {
        case .notFound(let what): "\(what) not found"
        case .duplicate(let what): what
        case .invalidInput(let what): what
        case let .newerSchema(path, databaseVersion, knownVersion):
            "\(path) has schema version \(databaseVersion), but this Useful Map knows only up to "
                + "\(knownVersion): it was written by a newer version. Upgrade Useful Map; the file was not changed."
        case let .checksumMismatch(path, version, fileName, recorded, embedded):
            "\(path): migration \(version) was applied with checksum \(recorded), but this binary's "
                + "\(fileName) has checksum \(embedded). A released migration must never be edited; "
                + "the file was not changed."
        case .notADatabase(let path):
            "\(path) is not a SQLite database; it was left untouched. Move it away or choose another path."
        case let .corruptDatabase(path, detail):
            "\(path) is a damaged SQLite database (\(detail)); it was left untouched. Restore a backup."
        case .foreignDatabase(let path):
            "\(path) is a SQLite database that Useful Map did not create; it was left untouched."
        case let .readOnlyDirectory(path, directory):
            "cannot use \(path): the directory \(directory) is not writable "
                + "(SQLite needs to create \(path)-wal and -shm beside it)"
        case let .cannotOpen(path, reason): "cannot open \(path): \(reason)"
        case .corruptRecord(let what): "damaged record in the database: \(what)"
        case .diskFull(let path): "cannot write \(path): the disk is full; the change was rolled back"
        case .database(let error): error.description
        }
    }
}
