import CSQLite

/// A failed SQLite call, with the evidence needed to understand it from a log line:
/// the primary and extended result codes, SQLite's message, the SQL and the database file.
///
/// Switch on `resultCode` (primary; e.g. `SQLITE_CONSTRAINT`) for broad handling, on
/// `extendedCode` (e.g. `SQLITE_CONSTRAINT_UNIQUE`) for detail, or send `code` on the wire.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (low 8 bits of the extended code).
    public let resultCode: Int32
    /// The extended result code; equals `resultCode` when SQLite gave no detail.
    public let extendedCode: Int32
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?
    /// The database file, when known.
    public let path: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.resultCode = extendedCode & 0xFF
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// A stable snake_case name of the primary result code, e.g. `sqlite_constraint`.
    public var code: String {
        Self.primaryCodeNames[resultCode] ?? "sqlite_error_\(resultCode)"
    }

    /// True for SQLITE_BUSY and SQLITE_LOCKED: another connection holds a lock.
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }

    /// True for SQLITE_NOTADB and SQLITE_CORRUPT: the file is not a usable database.
    public var isNotADatabaseOrCorrupt: Bool { resultCode == SQLITE_NOTADB || resultCode == SQLITE_CORRUPT }

    public var description: String {
        var text = "SQLite error \(code) (\(resultCode)"
        if extendedCode != resultCode { text += ", extended \(extendedCode)" }
        text += "): \(message)"
        if let path { text += " — database \(path)" }
        if let sql { text += " — SQL: \(sql)" }
        return text
    }

    static let primaryCodeNames: [Int32: String] = [
        SQLITE_ERROR: "sqlite_error",
        SQLITE_INTERNAL: "sqlite_internal",
        SQLITE_PERM: "sqlite_perm",
        SQLITE_ABORT: "sqlite_abort",
        SQLITE_BUSY: "sqlite_busy",
        SQLITE_LOCKED: "sqlite_locked",
        SQLITE_NOMEM: "sqlite_nomem",
        SQLITE_READONLY: "sqlite_readonly",
        SQLITE_INTERRUPT: "sqlite_interrupt",
        SQLITE_IOERR: "sqlite_ioerr",
        SQLITE_CORRUPT: "sqlite_corrupt",
        SQLITE_NOTFOUND: "sqlite_notfound",
        SQLITE_FULL: "sqlite_full",
        SQLITE_CANTOPEN: "sqlite_cantopen",
        SQLITE_PROTOCOL: "sqlite_protocol",
        SQLITE_EMPTY: "sqlite_empty",
        SQLITE_SCHEMA: "sqlite_schema",
        SQLITE_TOOBIG: "sqlite_toobig",
        SQLITE_CONSTRAINT: "sqlite_constraint",
        SQLITE_MISMATCH: "sqlite_mismatch",
        SQLITE_MISUSE: "sqlite_misuse",
        SQLITE_NOLFS: "sqlite_nolfs",
        SQLITE_AUTH: "sqlite_auth",
        SQLITE_FORMAT: "sqlite_format",
        SQLITE_RANGE: "sqlite_range",
        SQLITE_NOTADB: "sqlite_notadb",
    ]
}
