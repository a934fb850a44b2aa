/// One value SQLite stores or returns: its five storage classes.
///
/// Literals make bindings short:
/// ```swift
/// try db.execute("INSERT INTO t(a, b, c) VALUES (?, ?, ?)", [42, "text", nil])
/// ```
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
    /// SQLite has no boolean type: `true` is stored as 1, `false` as 0.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue {
    /// An integer value from any `Int`.
    public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

    /// `true` → 1, `false` → 0.
    public static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }

    /// `.text(value)`, or `.null` when `value` is nil.
    public static func optional(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    /// `.real(value)`, or `.null` when `value` is nil.
    public static func optional(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }

    /// `.integer(value)`, or `.null` when `value` is nil.
    public static func optional(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }

    /// `.integer(value)`, or `.null` when `value` is nil.
    public static func optional(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
}
