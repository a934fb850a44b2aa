/// Per-connection pragmas, chosen by the caller because durability needs differ:
/// the user's own data must survive a power cut (`synchronous=FULL`), while a region index
/// that can be rebuilt from its source may trade that for speed (`NORMAL`).
///
/// ```swift
/// let db = try Database(path: path)
/// try db.configure(.userData)
/// ```
public struct ConnectionSettings: Sendable, Hashable {
    /// SQLite's `journal_mode`.
    public enum JournalMode: String, Sendable, Hashable {
        case delete = "DELETE"
        case truncate = "TRUNCATE"
        case persist = "PERSIST"
        case memory = "MEMORY"
        case wal = "WAL"
        case off = "OFF"
    }

    /// SQLite's `synchronous` setting: how often it waits for the disk.
    public enum Synchronous: String, Sendable, Hashable {
        case off = "OFF"
        case normal = "NORMAL"
        case full = "FULL"
        case extra = "EXTRA"
    }

    public var journalMode: JournalMode
    public var synchronous: Synchronous
    public var foreignKeys: Bool
    /// `nil` leaves SQLite's default.
    public var busyTimeout: Double?

    public init(journalMode: JournalMode = .wal, synchronous: Synchronous = .full,
                foreignKeys: Bool = true, busyTimeout: Double? = nil) {
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.foreignKeys = foreignKeys
        self.busyTimeout = busyTimeout
    }

    /// The user's database: WAL, `synchronous=FULL` (a committed write survives a power cut),
    /// foreign keys enforced.
    public static let userData = ConnectionSettings(journalMode: .wal, synchronous: .full, foreignKeys: true)

    /// A derived cache that can be rebuilt from its source (street index, timetable):
    /// WAL, `synchronous=NORMAL` (a power cut may lose the last commits but never corrupts).
    public static let derivedCache = ConnectionSettings(journalMode: .wal, synchronous: .normal, foreignKeys: true)
}
