import CSQLite
import Foundation

/// One connection to a SQLite database file.
///
/// ```swift
/// let db = try Database(path: "/tmp/example.sqlite")
/// try db.configure(.userData)                 // WAL, synchronous=FULL, foreign keys
/// try db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// try db.transaction {
///     try db.execute("INSERT INTO t(name) VALUES (?)", ["Hervanta"])
/// }
/// let names = try db.query("SELECT name FROM t ORDER BY id") { $0.string(0) }
/// ```
///
/// Threads: use a connection (and its statements) from one thread at a time. The connection
/// is opened in SQLite's serialized mode, so an accidental concurrent call cannot corrupt
/// memory, but interleaved calls from two threads would interleave their transactions;
/// callers that share a connection serialise access themselves (a lock or an actor). For
/// concurrent readers, open one connection per reader: in WAL mode readers and the single
/// writer do not block each other.
public final class Database: @unchecked Sendable {
    /// The file this connection opened (as given; ":memory:" for an in-memory database).
    public let path: String
    private var handle: OpaquePointer?
    private var savepointCounter = 0

    /// Opens (and with `.readWriteCreate`, creates) the database at `path`.
    ///
    /// Opening does not read the file yet: a file that is not a database is reported by the
    /// first statement (`sqlite_notadb`), and SQLite never overwrites such a file.
    /// - parameter busyTimeout: how long a statement waits for another connection's lock
    ///   before failing with `sqlite_busy`.
    /// - throws: `SQLiteError` (`sqlite_cantopen` for a missing file or directory, or no permission).
    public init(path: String, mode: OpenMode = .readWriteCreate, busyTimeout: TimeInterval = 5) throws {
        self.path = path
        var flags = SQLITE_OPEN_FULLMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var opened: OpaquePointer?
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let message = opened.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                ?? Self.describe(result)
            let extended = opened.map { sqlite3_extended_errcode($0) } ?? result
            sqlite3_close_v2(opened)
            throw SQLiteError(extendedCode: extended, message: message, sql: nil, path: path)
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, Int32(max(0, min(busyTimeout * 1000, Double(Int32.max)))))
    }

    deinit { sqlite3_close_v2(handle) }

    /// Closes the connection. Statements still alive keep it open until they are released.
    /// Later calls on this object throw `sqlite_misuse`.
    public func close() {
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// True until `close()`.
    public var isOpen: Bool { handle != nil }

    // MARK: - Settings

    /// Applies journal mode, synchronous, foreign keys and (if set) busy timeout.
    /// - throws: `SQLiteError`; also when a file database refuses the requested journal mode
    ///   (for example WAL on a read-only connection to a non-WAL file).
    public func configure(_ settings: ConnectionSettings) throws {
        if let timeout = settings.busyTimeout {
            sqlite3_busy_timeout(try connection(), Int32(max(0, min(timeout * 1000, Double(Int32.max)))))
        }
        let requested = settings.journalMode.rawValue
        // Switching the journal mode needs an exclusive lock, and SQLite answers SQLITE_BUSY at once
        // (without its busy handler) while another process opens or switches the same file, so the
        // switch is retried until the busy timeout runs out.
        let deadline = Date().addingTimeInterval(settings.busyTimeout ?? 5)
        var actual: String?
        while true {
            do {
                actual = try scalar("PRAGMA journal_mode=\(requested)").flatMap { value -> String? in
                    if case .text(let text) = value { return text.uppercased() } else { return nil }
                }
                break
            } catch let error as SQLiteError where error.isBusy && Date() < deadline {
                usleep(10_000)
            }
        }
        let isFileDatabase = !(path.isEmpty || path == ":memory:" || path.hasPrefix("file::memory:"))
        if isFileDatabase, actual != requested {
            throw SQLiteError(extendedCode: SQLITE_ERROR,
                              message: "journal_mode stayed \(actual ?? "unknown") instead of \(requested)",
                              sql: "PRAGMA journal_mode=\(requested)", path: path)
        }
        try execute("PRAGMA synchronous=\(settings.synchronous.rawValue)")
        try execute("PRAGMA foreign_keys=\(settings.foreignKeys ? "ON" : "OFF")")
    }

    /// Sets how long statements wait for another connection's lock.
    public func setBusyTimeout(_ seconds: TimeInterval) throws {
        sqlite3_busy_timeout(try connection(), Int32(max(0, min(seconds * 1000, Double(Int32.max)))))
    }

    /// The current `journal_mode`, lowercased as SQLite reports it (e.g. "wal").
    public func journalMode() throws -> String {
        try query("PRAGMA journal_mode") { $0.string(0) }.first ?? ""
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database, otherwise SQLite's findings.
    public func integrityCheck() throws -> [String] {
        try query("PRAGMA integrity_check") { $0.string(0) }
    }

    /// True when this SQLite library was compiled with `option` (e.g. "ENABLE_FTS5", "ENABLE_RTREE").
    public static func hasCompileOption(_ option: String) -> Bool {
        sqlite3_compileoption_used(option) != 0
    }

    /// The SQLite library version, e.g. "3.40.1".
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    // MARK: - Running SQL

    /// Runs a script of one or more statements separated by `;`, without parameters.
    /// Rows any statement returns are discarded.
    /// - throws: `SQLiteError` whose `sql` is the statement that failed.
    public func execute(_ sql: String) throws {
        let db = try connection()
        try sql.withCString { start in
            var current: UnsafePointer<CChar>? = start
            while let position = current, position.pointee != 0 {
                var prepared: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let result = sqlite3_prepare_v2(db, position, -1, &prepared, &tail)
                guard result == SQLITE_OK else {
                    sqlite3_finalize(prepared)
                    throw error(code: result,
                                sql: String(cString: position).trimmingCharacters(in: .whitespacesAndNewlines))
                }
                current = tail
                guard let prepared else { continue } // only whitespace or a comment was left
                defer { sqlite3_finalize(prepared) }
                var stepResult: Int32
                repeat { stepResult = sqlite3_step(prepared) } while stepResult == SQLITE_ROW
                guard stepResult == SQLITE_DONE else {
                    let text = sqlite3_sql(prepared).map { String(cString: $0) } ?? String(cString: position)
                    throw error(code: stepResult, sql: text)
                }
            }
        }
    }

    /// Runs one statement with `?` parameters bound to `bindings`; rows are discarded.
    public func execute(_ sql: String, _ bindings: [SQLiteValue]) throws {
        try prepare(sql).run(bindings)
    }

    /// Compiles one statement for repeated use.
    /// - throws: `SQLiteError` with the SQL, e.g. for a syntax error or a missing table.
    public func prepare(_ sql: String) throws -> Statement {
        let db = try connection()
        var prepared: OpaquePointer?
        let result = sqlite3_prepare_v2(db, sql, -1, &prepared, nil)
        guard result == SQLITE_OK else {
            sqlite3_finalize(prepared)
            throw error(code: result, sql: sql)
        }
        guard let prepared else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no statement in SQL", sql: sql, path: path)
        }
        return Statement(handle: prepared, database: self, sql: sql)
    }

    /// Runs one statement and maps every row with `row`.
    ///
    /// ```swift
    /// let stops = try db.query("SELECT id, name FROM stop WHERE name LIKE ?", ["Keskus%"]) {
    ///     (id: $0.string(0), name: $0.string(1))
    /// }
    /// ```
    public func query<T>(_ sql: String, _ bindings: [SQLiteValue] = [], _ row: (Row) throws -> T) throws -> [T] {
        try prepare(sql).query(bindings, row)
    }

    /// The first column of the first row, or nil when there is no row.
    public func scalar(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        return try statement.step()?.value(0)
    }

    // MARK: - Transactions

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` (takes the write lock up front, so two
    /// writers wait on the busy timeout instead of failing mid-way), `COMMIT` when `body`
    /// returns, `ROLLBACK` when it throws (the error is rethrown).
    ///
    /// Inside another transaction this nests as a savepoint, so helpers can be composed.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollbackQuietly()
            throw error
        }
    }

    /// Runs `body` in a read transaction (`BEGIN DEFERRED`) so several queries see one snapshot.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        try execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollbackQuietly()
            throw error
        }
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back when it throws.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointCounter += 1
        let name = "sp_\(savepointCounter)"
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            try? execute("ROLLBACK TO SAVEPOINT \(name)")
            try? execute("RELEASE SAVEPOINT \(name)")
            throw error
        }
    }

    private func rollbackQuietly() {
        if isInTransaction { try? execute("ROLLBACK") }
    }

    /// True while a transaction is open on this connection.
    public var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    // MARK: - Results of the last statement

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    public var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// Rows changed since the connection opened.
    public var totalChanges: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_total_changes64(handle))
    }

    // MARK: - Errors

    func connection() throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "database connection is closed", path: path)
        }
        return handle
    }

    /// The error for a failed call that returned `code`, with SQLite's current message.
    func error(code: Int32, sql: String?) -> SQLiteError {
        guard let handle else {
            return SQLiteError(extendedCode: code, message: Self.describe(code), sql: sql, path: path)
        }
        let extended = sqlite3_extended_errcode(handle)
        let useExtended = extended & 0xFF == code & 0xFF
        let message = useExtended ? (sqlite3_errmsg(handle).map { String(cString: $0) } ?? Self.describe(code))
                                  : Self.describe(code)
        return SQLiteError(extendedCode: useExtended ? extended : code, message: message, sql: sql, path: path)
    }

    static func describe(_ code: Int32) -> String {
        sqlite3_errstr(code).map { String(cString: $0) } ?? "SQLite result code \(code)"
    }
}
