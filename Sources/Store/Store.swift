import Executors
import Foundation
import Planner
import SQLite

/// Everything the user keeps, in one SQLite file: saved places, search and route history,
/// and plans.
///
/// ```swift
/// let store = try Store(path: Store.defaultPath(environment: ProcessInfo.processInfo.environment))
/// try await store.write(Places.save(SavedPlace(name: "Home", place: place)))   // in async code
/// let plan = try store.read(Plans.load(id))                                     // on a plain thread
/// ```
///
/// Opening checks the file before writing anything (a non-SQLite or damaged file, or one from
/// a newer Useful Map, is refused and left byte-identical), then applies missing migrations.
/// Every write is all or nothing, in a `BEGIN IMMEDIATE` transaction with `synchronous=FULL`:
/// once `write` returns, the change survives a crash or power cut. Writes queued while
/// another commits share the next transaction, each in a savepoint (`GroupCommit`).
///
/// The face is GRDB's: queries are values (`StoreRead`, `StoreWrite`, built by the table groups
/// `Plans`, `Places`, `History`, `Reminders`, `Geofences`, `Maintenance`) and the store has
/// three ways to run them: `read`, `write` and `readAtOnce`. `read` and `write` exist twice,
/// as overloads: `try await store.read(q)` in async code (the caller is suspended, never
/// blocked, and resumed from the store's thread) and `try store.read(q)` on plain threads,
/// tests and tools (the caller waits; from a task it is a bug, refused in debug builds).
///
/// Threads, in the manner of GRDB's `DatabasePool`: one writer thread owns the write
/// connection and runs the writes one after the other; `readerCount` reader threads, each with
/// a `query_only` connection, run reads at the same time (WAL lets them read beside a write).
/// Several processes may open the same file; SQLite's locks keep it consistent.
public final class Store: Sendable {
    /// Entries kept per history list.
    public static let historyLimit = 20
    /// Enter radii a fence may have, in metres: smaller than GPS can tell apart, or larger than a
    /// neighbourhood, is a typo rather than a fence.
    public static let fenceRadiusRange = 20.0...5_000.0
    /// Leads a reminder may have: up to a day before leaving.
    public static let reminderLeadRange: ClosedRange<TimeInterval> = 0...86_400

    /// The database file.
    public let path: String
    let clock: any WallClock
    /// Reader threads (and connections): reads run this many at a time.
    public static let readerCount = 3
    private let threads: StoreThreads
    /// One more reader connection, for the few reads a plain thread must get at once (`readAtOnce`).
    private let atOnceReader: AtOnceReader

    /// Opens the database at `path`, creating it and its parent directory when missing, and
    /// brings its schema up to date.
    /// - parameter clock: gives the created/updated times of places and plans.
    /// - parameter threadNice: the nice value the store's threads (writer and readers) run at;
    ///   nil: the opening thread's. The daemon's are below its I/O threads (`HeavyWorkPriority`).
    /// - throws: `StoreError`: `.notADatabase`, `.corruptDatabase`, `.foreignDatabase`,
    ///   `.newerSchema`, `.checksumMismatch`, `.readOnlyDirectory`, `.cannotOpen`; in each case
    ///   the file is left as it was.
    public init(path: String, clock: any WallClock = SystemClock(), threadNice: Int32? = nil) throws {
        self.path = path
        self.clock = clock
        let writerConnection = try Self.openAndMigrate(path: path, migrations: Migration.embedded, clock: clock)
        var readerConnections: [Database] = []
        do {
            for _ in 0...Self.readerCount {
                let reader = try Database(path: path, mode: .readWrite)
                try reader.execute("PRAGMA query_only=ON")
                readerConnections.append(reader)
            }
        } catch let error as SQLiteError {
            throw Self.storeError(error, path: path)
        }
        atOnceReader = AtOnceReader(StatementCache(readerConnections.removeLast(), clock: clock, role: nil))
        threads = StoreThreads(writer: writerConnection, readers: readerConnections, clock: clock, nice: threadNice)
    }

    deinit {
        // Before the threads' connections: the last connection to close checkpoints the WAL.
        atOnceReader.close()
    }

    /// `$XDG_DATA_HOME/usefulmap/usefulmap.sqlite`, or `~/.local/share/usefulmap/usefulmap.sqlite`
    /// when `XDG_DATA_HOME` is unset, empty or relative (as the XDG spec says to ignore it).
    public static func defaultPath(environment: [String: String]) -> String {
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? FileManager.default.homeDirectoryForCurrentUser.path
            dataHome = (home as NSString).appendingPathComponent(".local/share")
        }
        return (dataHome as NSString).appendingPathComponent("usefulmap/usefulmap.sqlite")
    }

    // MARK: - Opening

    /// Checks the file without writing to it, then configures the connection and migrates.
    static func openAndMigrate(path: String, migrations: [Migration], clock: any WallClock) throws -> Database {
        try prepareLocation(path)
        let db: Database
        do {
            db = try Database(path: path, mode: .readWriteCreate)
        } catch let error as SQLiteError {
            throw storeError(error, path: path)
        }
        do {
            // Reads only, so that a damaged or foreign file is reported before anything is written.
            let check = try db.query("PRAGMA quick_check") { $0.string(0) }
            guard check == ["ok"] else {
                throw StoreError.corruptDatabase(path: path, detail: check.prefix(3).joined(separator: "; "))
            }
            let migrator = Migrator(migrations: migrations, path: path)
            try migrator.validate(db)
            try db.configure(.userData)
            try migrator.migrate(db, now: clock.now)
            return db
        } catch let error as SQLiteError {
            db.close()
            throw storeError(error, path: path)
        } catch {
            db.close()
            throw error
        }
    }

    /// Creates the parent directory if needed, and refuses unwritable places and files that
    /// are plainly not SQLite databases (checking the 16-byte header) before SQLite opens them.
    static func prepareLocation(_ path: String) throws {
        let fileManager = FileManager.default
        // By URL: NSString's deletingLastPathComponent crashes on a name with no "/" in this
        // toolchain's Foundation.
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if !fileManager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            do {
                try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot create the directory \(directory): "
                                            + "\(error.localizedDescription)")
            }
        } else if !isDirectory.boolValue {
            throw StoreError.cannotOpen(path: path, reason: "\(directory) is not a directory")
        }
        guard fileManager.isWritableFile(atPath: directory) else {
            throw StoreError.readOnlyDirectory(path: path, directory: directory)
        }
        guard fileManager.fileExists(atPath: path) else { return }
        guard fileManager.isReadableFile(atPath: path), let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "the file cannot be read")
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        if !header.isEmpty, header != Data("SQLite format 3\u{0}".utf8) {
            throw StoreError.notADatabase(path: path)
        }
        guard fileManager.isWritableFile(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "the file is read-only")
        }
    }

    /// A SQLite error as the store reports it: damaged files and open failures name the file.
    static func storeError(_ error: SQLiteError, path: String) -> StoreError {
        switch error.code {
        case "sqlite_notadb": .notADatabase(path: path)
        case "sqlite_corrupt": .corruptDatabase(path: path, detail: error.message)
        case "sqlite_cantopen": .cannotOpen(path: path, reason: error.message)
        case "sqlite_readonly", "sqlite_perm": .cannotOpen(path: path, reason: "the database is read-only (\(error.message))")
        case "sqlite_full": .diskFull(path: path)
        default: .database(error)
        }
    }

    // MARK: - Running work

    /// Runs `query` in one read transaction (a consistent snapshot) on a reader thread (or, from
    /// a write on the writer thread, on the writer's connection, which sees the write's changes).
    /// The caller waits: for plain threads, tests and tools.
    public func read<T>(_ query: StoreRead<T>) throws -> T {
        try threads.run(on: .reader, Self.inReadTransaction(query, path: path))
    }

    /// Runs `query` as `read` does, suspending the calling task (never blocking its thread)
    /// until a reader thread has answered.
    public func read<T: Sendable>(_ query: StoreRead<T>) async throws -> T {
        try await threads.run(on: .reader, Self.inReadTransaction(query, path: path))
    }

    /// Runs `query` in one write transaction on the writer thread (queued behind the writes
    /// before it) and returns once its change is durable. The caller waits.
    @discardableResult
    public func write<T>(_ query: StoreWrite<T>) throws -> T {
        try threads.run(on: .writer, Self.inWriteTransaction(query, path: path))
    }

    /// Runs `query` as `write` does, suspending the calling task until it is durable.
    @discardableResult
    public func write<T: Sendable>(_ query: StoreWrite<T>) async throws -> T {
        try await threads.run(on: .writer, Self.inWriteTransaction(query, path: path))
    }

    /// Runs `query` in one read transaction on the caller's own thread, through the at-once
    /// reader: it waits for no queued work (in WAL mode not even for a write in progress), only
    /// for another at-once read. For plain threads that must answer now (a connection's I/O
    /// thread answering `status`), not for tasks.
    public func readAtOnce<T>(_ query: StoreRead<T>) throws -> T {
        assert(withUnsafeCurrentTask { $0 == nil },
               "a blocking store call in a task holds a thread of the cooperative pool: call the async method (try await)")
        return try atOnceReader.run(Self.inReadTransaction(query, path: path))
    }

    private static func inReadTransaction<T>(_ query: StoreRead<T>, path: String) -> @Sendable (StatementCache) throws -> T {
        { db in try namingErrors(path: path) { try db.database.readTransaction { try query.body(db) } } }
    }

    private static func inWriteTransaction<T>(_ query: StoreWrite<T>, path: String) -> @Sendable (StatementCache) throws -> T {
        { db in try namingErrors(path: path) { try db.database.transaction { try query.body(db) } } }
    }

    /// `body`, with a SQLite error turned into the store's (naming the file where it matters).
    private static func namingErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw storeError(error, path: path)
        }
    }

    /// Writes queued for the writer thread and not taken yet.
    var queuedWrites: Int { threads.queuedWrites }

    /// The writes the writer committed together so far.
    var groupCommits: GroupCommit.Counts { threads.groupCommits }
}

/// A connection and its prepared statements, reused across calls. Only its own store thread
/// uses it, or for the at-once reader one thread at a time under its lock (a debug build
/// checks every statement).
final class StatementCache {
    let database: Database
    /// Gives the created/updated times the writes store.
    private let clock: any WallClock
    var now: Double { clock.now().timeIntervalSinceReferenceDate }
    private var statements: [String: Statement] = [:]
    /// The store thread that owns the connection; nil for the at-once reader's, which any
    /// thread uses, one at a time under a lock.
    let role: StoreThreads.Role?

    init(_ database: Database, clock: any WallClock, role: StoreThreads.Role?) {
        self.database = database
        self.clock = clock
        self.role = role
    }

    /// The connection of the store thread running the caller, if it is one.
    static var current: StatementCache? { currentExecutorLocal(as: StatementCache.self) }

    func statement(_ sql: String) throws -> Statement {
        assert(role == nil || Self.current === self,
               "a store connection used off its own thread (\(Thread.current.name ?? "unnamed")): \(sql)")
        if let cached = statements[sql] { return cached }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
        try statement(sql).run(values)
    }

    func query<T>(_ sql: String, _ values: [SQLiteValue] = [], _ row: (Row) throws -> T) throws -> [T] {
        try statement(sql).query(values, row)
    }

    var changes: Int { database.changes }

    /// Finalizes the statements and closes the connection (its thread is ending).
    func close() {
        statements.removeAll()
        database.close()
    }
}
