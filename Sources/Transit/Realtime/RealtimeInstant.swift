import Foundation

/// The instants a GTFS-Realtime feed may give: POSIX seconds from 1970-01-01 to 9999-12-31.
/// Decoding checks every time against this range where it enters, so that delays, service days
/// and the wire's ISO 8601 text never compute with -2^63 or 2^64-1 (each of which once trapped
/// the daemon, and again at every restart, since the feed stays set).
public enum RealtimeInstant {
    /// 1970-01-01T00:00:00Z ... 9999-12-31T23:59:59Z.
    public static let range: ClosedRange<Int64> = 0...253_402_300_799

    /// `value` as POSIX seconds when in `range`.
    /// - throws: `.instantOutOfRange` naming `field`.
    static func seconds<Value: BinaryInteger>(_ value: Value, field: String) throws(RealtimeFeedRefusal) -> Int64 {
        guard let seconds = Int64(exactly: value), range.contains(seconds) else {
            throw .instantOutOfRange(field: field, value: String(value))
        }
        return seconds
    }

    /// `value` as a date when in `range`.
    /// - throws: `.instantOutOfRange` naming `field`.
    static func date<Value: BinaryInteger>(_ value: Value, field: String) throws(RealtimeFeedRefusal) -> Date {
        Date(timeIntervalSince1970: TimeInterval(try seconds(value, field: field)))
    }
}
