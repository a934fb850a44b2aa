import CSQLite

/// A prepared statement: compile once, then bind, step and reset many times.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO stop(id, name) VALUES (?, ?)")
/// for stop in stops { try insert.run([.text(stop.id), .text(stop.name)]) }
/// ```
/// Like its `Database`, a statement is used from one thread at a time.
/// It is finalized when the last reference goes away.
public final class Statement {
    let handle: OpaquePointer
    /// Kept strongly so the connection outlives its statements.
    public let database: Database
    /// The SQL this statement was prepared from.
    public let sql: String

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// How many `?` parameters the statement takes.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// How many columns each row has.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// Binds `values` to parameters 1…n, after clearing earlier bindings.
    /// - throws: `SQLiteError` (`sqlite_range`) when the count differs from the statement's parameters.
    public func bind(_ values: [SQLiteValue]) throws {
        sqlite3_clear_bindings(handle)
        guard values.count == parameterCount else {
            throw SQLiteError(extendedCode: SQLITE_RANGE,
                              message: "statement takes \(parameterCount) parameters, \(values.count) given",
                              sql: sql, path: database.path)
        }
        for (offset, value) in values.enumerated() {
            try check(bind(value, at: Int32(offset + 1)))
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer(let number):
            return sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            return sqlite3_bind_double(handle, index, number)
        case .text(let text):
            var text = text
            return text.withUTF8 { bytes in
                // A nil base address would bind NULL, so an empty string gets a real pointer.
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(bytes.count), sqliteTransient)
                }
            }
        case .blob(let bytes):
            guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return bytes.withUnsafeBytes {
                sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), sqliteTransient)
            }
        }
    }

    /// Advances to the next row: the row, or nil when the statement has finished.
    /// - throws: `SQLiteError` with the statement's SQL.
    public func step() throws -> Row? {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return Row(statement: self)
        case SQLITE_DONE: return nil
        default: throw error(result)
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    public func reset() throws {
        try check(sqlite3_reset(handle))
    }

    /// Resets, binds `values` and steps to the end, discarding rows: for inserts in loops.
    public func run(_ values: [SQLiteValue] = []) throws {
        sqlite3_reset(handle)
        try bind(values)
        while try step() != nil {}
        sqlite3_reset(handle)
    }

    /// Resets, binds `values` and maps every row.
    public func query<T>(_ values: [SQLiteValue] = [], _ row: (Row) throws -> T) throws -> [T] {
        sqlite3_reset(handle)
        try bind(values)
        defer { sqlite3_reset(handle) }
        var results: [T] = []
        while let current = try step() { results.append(try row(current)) }
        return results
    }

    private func check(_ result: Int32) throws {
        guard result == SQLITE_OK else { throw error(result) }
    }

    private func error(_ result: Int32) -> SQLiteError {
        database.error(code: result, sql: sql)
    }
}

/// SQLite's SQLITE_TRANSIENT: "copy the bytes before returning".
let sqliteTransient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)
