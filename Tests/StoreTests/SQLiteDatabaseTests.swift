import Foundation
import SQLite
import TestSupport
import XCTest

final class SQLiteDatabaseTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory("sqlite") }
    override func tearDown() { directory.remove() }

    func openFileDatabase(_ name: String = "test.sqlite") throws -> Database {
        let db = try Database(path: directory.path(name))
        try db.configure(.userData)
        return db
    }

    // MARK: - Values

    func testEveryStorageClassRoundTripsThroughBindAndRead() throws {
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE v(i INTEGER, r REAL, t TEXT, b BLOB, n)")
        let text = "Hämeenkatu 1 — Tampere 🚋\u{0}tail"
        let blob: [UInt8] = [0, 1, 2, 255, 0]
        try db.execute("INSERT INTO v VALUES (?, ?, ?, ?, ?)",
                       [.integer(Int64.min), .real(-0.125), .text(text), .blob(blob), nil])
        let rows = try db.query("SELECT i, r, t, b, n FROM v") { row in row.values }
        XCTAssertEqual(rows, [[.integer(Int64.min), .real(-0.125), .text(text), .blob(blob), .null]])
    }

    func testEmptyTextAndEmptyBlobAreStoredAsValuesNotNull() throws {
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE v(t TEXT, b BLOB)")
        try db.execute("INSERT INTO v VALUES (?, ?)", [.text(""), .blob([])])
        let row = try db.query("SELECT t IS NULL, b IS NULL, typeof(t), typeof(b) FROM v") {
            [$0.int(0), $0.int(1)].map(String.init) + [$0.string(2), $0.string(3)]
        }
        XCTAssertEqual(row, [["0", "0", "text", "blob"]])
    }

    func testOptionalAccessorsReturnNilForNullAndNonOptionalOnesReturnZeroValues() throws {
        let db = try openFileDatabase()
        let rows = try db.query("SELECT NULL, NULL, NULL, NULL, NULL, 7") { row in
            (row.optionalString(0), row.optionalDouble(1), row.optionalInt64(2), row.string(3),
             row.blob(4), row.isNull(4), row.optionalInt64(5))
        }
        let row = try XCTUnwrap(rows.first)
        XCTAssertNil(row.0)
        XCTAssertNil(row.1)
        XCTAssertNil(row.2)
        XCTAssertEqual(row.3, "")
        XCTAssertEqual(row.4, [])
        XCTAssertTrue(row.5)
        XCTAssertEqual(row.6, 7)
    }

    func testLiteralsBuildTheMatchingValues() {
        let values: [SQLiteValue] = [1, 2.5, "x", nil, true]
        XCTAssertEqual(values, [.integer(1), .real(2.5), .text("x"), .null, .integer(1)])
    }

    // MARK: - Statements

    func testPreparedStatementRunsInALoopAndReportsRowIDAndChanges() throws {
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE stop(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        let insert = try db.prepare("INSERT INTO stop(name) VALUES (?)")
        for name in ["Keskustori", "Hervanta", "Pyynikintori"] { try insert.run([.text(name)]) }
        XCTAssertEqual(db.lastInsertRowID, 3)
        try db.execute("UPDATE stop SET name = name || '!' WHERE id >= ?", [2])
        XCTAssertEqual(db.changes, 2)
        let select = try db.prepare("SELECT name FROM stop WHERE id = ?")
        try select.bind([2])
        XCTAssertEqual(try select.step()?.string(0), "Hervanta!")
        XCTAssertNil(try select.step())
        try select.reset()
        XCTAssertEqual(try select.step()?.string(0), "Hervanta!", "reset keeps bindings")
    }

    func testBindingTheWrongNumberOfValuesIsARangeError() throws {
        let db = try openFileDatabase()
        let statement = try db.prepare("SELECT ?, ?")
        XCTAssertThrowsError(try statement.bind([1])) { error in
            XCTAssertEqual((error as? SQLiteError)?.code, "sqlite_range")
        }
    }

    func testScriptRunsEveryStatementAndIgnoresTrailingComments() throws {
        let db = try openFileDatabase()
        try db.execute("""
            CREATE TABLE a(x); -- first
            INSERT INTO a VALUES (1);
            INSERT INTO a VALUES (2);
            /* nothing after this */
            """)
        XCTAssertEqual(try db.query("SELECT x FROM a ORDER BY x") { $0.int(0) }, [1, 2])
    }

    // MARK: - Errors

    func testConstraintErrorCarriesPrimaryAndExtendedCodesMessageSQLAndPath() throws {
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE u(name TEXT UNIQUE)")
        let sql = "INSERT INTO u VALUES (?)"
        try db.execute(sql, ["Koti"])
        XCTAssertThrowsError(try db.execute(sql, ["Koti"])) { error in
            guard let error = error as? SQLiteError else { return XCTFail("not a SQLiteError: \(error)") }
            XCTAssertEqual(error.resultCode, 19)        // SQLITE_CONSTRAINT
            XCTAssertEqual(error.extendedCode, 2067)    // SQLITE_CONSTRAINT_UNIQUE
            XCTAssertEqual(error.code, "sqlite_constraint")
            XCTAssertTrue(error.message.contains("UNIQUE"), error.message)
            XCTAssertEqual(error.sql, sql)
            XCTAssertEqual(error.path, self.directory.path("test.sqlite"))
            XCTAssertTrue(error.description.contains(self.directory.path("test.sqlite")))
        }
    }

    func testScriptErrorNamesTheStatementThatFailed() throws {
        let db = try openFileDatabase()
        XCTAssertThrowsError(try db.execute("CREATE TABLE ok(x); INSERT INTO missing VALUES (1);")) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error?.code, "sqlite_error")
            XCTAssertTrue(error?.sql?.hasPrefix("INSERT INTO missing") ?? false, String(describing: error?.sql))
            XCTAssertTrue(error?.message.contains("missing") ?? false)
        }
    }

    func testOpeningAMissingFileReadOnlyFailsWithCantOpenNamingTheFile() {
        let path = directory.path("absent.sqlite")
        XCTAssertThrowsError(try Database(path: path, mode: .readOnly)) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error?.code, "sqlite_cantopen")
            XCTAssertEqual(error?.path, path)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testATextFileIsReportedAsNotADatabaseAndLeftByteIdentical() throws {
        let path = directory.path("notes.sqlite")
        let original = Data(String(repeating: "not a database, just my notes\n", count: 200).utf8)
        try original.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try {
            let db = try Database(path: path)
            try db.configure(.userData)
        }()) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error?.code, "sqlite_notadb")
            XCTAssertEqual(error?.isNotADatabaseOrCorrupt, true)
            XCTAssertEqual(error?.path, path)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    func testUsingAClosedConnectionIsAMisuseErrorNotACrash() throws {
        let db = try openFileDatabase()
        db.close()
        XCTAssertFalse(db.isOpen)
        XCTAssertThrowsError(try db.execute("SELECT 1")) { error in
            XCTAssertEqual((error as? SQLiteError)?.code, "sqlite_misuse")
        }
    }

    // MARK: - Transactions

    func testTransactionRollsBackEverythingWhenTheBodyThrows() throws {
        struct Abort: Error {}
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE t(x)")
        XCTAssertThrowsError(try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            throw Abort()
        }) { XCTAssertTrue($0 is Abort) }
        XCTAssertFalse(db.isInTransaction)
        XCTAssertEqual(try db.query("SELECT count(*) FROM t") { $0.int(0) }, [0])
    }

    func testTransactionCommitsAndReturnsTheBodysValue() throws {
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE t(x)")
        let id = try db.transaction { () throws -> Int64 in
            try db.execute("INSERT INTO t VALUES (41)")
            return db.lastInsertRowID
        }
        XCTAssertEqual(id, 1)
        let other = try Database(path: db.path)
        XCTAssertEqual(try other.query("SELECT x FROM t") { $0.int(0) }, [41], "committed, visible to another connection")
    }

    func testNestedTransactionIsASavepointWhoseFailureKeepsTheOuterWork() throws {
        struct Abort: Error {}
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE t(x)")
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            _ = try? db.transaction {
                try db.execute("INSERT INTO t VALUES (2)")
                throw Abort()
            }
            try db.execute("INSERT INTO t VALUES (3)")
        }
        XCTAssertEqual(try db.query("SELECT x FROM t ORDER BY x") { $0.int(0) }, [1, 3])
    }

    func testSecondWriterGetsBusyErrorWhileTheFirstHoldsTheWriteLock() throws {
        let first = try openFileDatabase()
        try first.execute("CREATE TABLE t(x)")
        let second = try Database(path: first.path, busyTimeout: 0)
        try second.configure(.userData)
        try first.execute("BEGIN IMMEDIATE")
        XCTAssertThrowsError(try second.transaction { try second.execute("INSERT INTO t VALUES (2)") }) { error in
            XCTAssertEqual((error as? SQLiteError)?.isBusy, true, "\(error)")
        }
        XCTAssertEqual(try second.query("SELECT count(*) FROM t") { $0.int(0) }, [0], "readers still read under WAL")
        try first.execute("COMMIT")
        try second.transaction { try second.execute("INSERT INTO t VALUES (2)") }
        XCTAssertEqual(try first.query("SELECT x FROM t") { $0.int(0) }, [2])
    }

    // MARK: - Settings and library features

    func testUserDataSettingsAreWALFullSyncAndForeignKeys() throws {
        let db = try openFileDatabase()
        XCTAssertEqual(try db.journalMode(), "wal")
        XCTAssertEqual(try db.scalar("PRAGMA synchronous"), .integer(2)) // FULL
        XCTAssertEqual(try db.scalar("PRAGMA foreign_keys"), .integer(1))
    }

    func testDerivedCacheSettingsUseNormalSync() throws {
        let db = try Database(path: directory.path("cache.sqlite"))
        try db.configure(.derivedCache)
        XCTAssertEqual(try db.journalMode(), "wal")
        XCTAssertEqual(try db.scalar("PRAGMA synchronous"), .integer(1)) // NORMAL
    }

    func testForeignKeysAreEnforcedUnderUserDataSettings() throws {
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(p INTEGER NOT NULL REFERENCES p(id))")
        XCTAssertThrowsError(try db.execute("INSERT INTO c VALUES (?)", [99])) { error in
            XCTAssertEqual((error as? SQLiteError)?.extendedCode, 787) // SQLITE_CONSTRAINT_FOREIGNKEY
        }
    }

    func testSystemLibraryProvidesFTS5AndRTree() throws {
        XCTAssertTrue(Database.hasCompileOption("ENABLE_FTS5"))
        XCTAssertTrue(Database.hasCompileOption("ENABLE_RTREE"))
        let db = try openFileDatabase()
        try db.execute("""
            CREATE VIRTUAL TABLE names USING fts5(name);
            CREATE VIRTUAL TABLE boxes USING rtree(id, minLat, maxLat, minLon, maxLon);
            """)
        try db.execute("INSERT INTO names(name) VALUES (?)", ["Hämeenkatu"])
        try db.execute("INSERT INTO boxes VALUES (1, 61.49, 61.50, 23.75, 23.77)")
        XCTAssertEqual(try db.query("SELECT name FROM names WHERE names MATCH ?", ["häme*"]) { $0.string(0) },
                       ["Hämeenkatu"])
        XCTAssertEqual(try db.query("SELECT id FROM boxes WHERE minLat <= 61.495 AND maxLat >= 61.495") { $0.int(0) },
                       [1])
    }

    func testIntegrityCheckOfAFreshDatabaseIsOk() throws {
        let db = try openFileDatabase()
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        XCTAssertEqual(try db.integrityCheck(), ["ok"])
    }
}
