import CSQLite

/// The current row of a `Statement`. Valid only until the statement steps again or resets;
/// copy values out (the accessors return Swift values) rather than keeping the row.
///
/// Columns are numbered from 0 in the order of the SELECT list. Reading a NULL as a
/// non-optional number gives 0, as text gives "", as a blob gives []; use the `optional…`
/// accessors or `isNull` when NULL means something.
public struct Row {
    let statement: Statement

    var handle: OpaquePointer { statement.handle }

    /// How many columns the row has.
    public var count: Int { Int(sqlite3_column_count(handle)) }

    /// The name SQLite gives column `i` (its alias if it has one).
    public func columnName(_ i: Int) -> String {
        sqlite3_column_name(handle, Int32(i)).map { String(cString: $0) } ?? ""
    }

    public func isNull(_ i: Int) -> Bool { sqlite3_column_type(handle, Int32(i)) == SQLITE_NULL }

    public func int64(_ i: Int) -> Int64 { sqlite3_column_int64(handle, Int32(i)) }

    public func int(_ i: Int) -> Int { Int(sqlite3_column_int64(handle, Int32(i))) }

    public func bool(_ i: Int) -> Bool { sqlite3_column_int64(handle, Int32(i)) != 0 }

    public func double(_ i: Int) -> Double { sqlite3_column_double(handle, Int32(i)) }

    /// The column as UTF-8 text; "" for NULL.
    public func string(_ i: Int) -> String {
        guard let bytes = sqlite3_column_text(handle, Int32(i)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    public func optionalString(_ i: Int) -> String? { isNull(i) ? nil : string(i) }

    public func optionalDouble(_ i: Int) -> Double? { isNull(i) ? nil : double(i) }

    public func optionalInt64(_ i: Int) -> Int64? { isNull(i) ? nil : int64(i) }

    public func optionalInt(_ i: Int) -> Int? { isNull(i) ? nil : int(i) }

    /// The column's bytes; [] for NULL or an empty blob.
    public func blob(_ i: Int) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, Int32(i)) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    public func optionalBlob(_ i: Int) -> [UInt8]? { isNull(i) ? nil : blob(i) }

    /// The column in its own storage class.
    public func value(_ i: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(i)) {
        case SQLITE_INTEGER: return .integer(int64(i))
        case SQLITE_FLOAT: return .real(double(i))
        case SQLITE_TEXT: return .text(string(i))
        case SQLITE_BLOB: return .blob(blob(i))
        default: return .null
        }
    }

    /// Every column in order.
    public var values: [SQLiteValue] { (0..<count).map(value) }
}
