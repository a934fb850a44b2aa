import Foundation
import Planner
import SQLite
import Store
import TestSupport
import XCTest

final class StoreOpeningTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory("open") }
    override func tearDown() { directory.remove() }

    func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testMissingParentDirectoriesAreCreated() throws {
        let path = directory.path("a/b/usefulmap.sqlite")
        let store = try Store(path: path)
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    /// A database named without a folder opens in the working folder (it crashed in Foundation's
    /// deletingLastPathComponent, session 53).
    func testADatabaseNamedWithoutAFolderOpensInTheWorkingFolder() throws {
        let working = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(directory.path("")))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(working) }
        let store = try Store(path: "usefulmap.sqlite")
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("usefulmap.sqlite")))
    }

    func testTextFileIsRefusedAsNotADatabaseNamingItAndLeftByteIdentical() throws {
        let path = directory.path("usefulmap.sqlite")
        let original = Data("places:\n  home: 61.49,23.76\n".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Store(path: path)) { error in
            XCTAssertEqual((error as? StoreError)?.code, "not_a_database")
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
        XCTAssertEqual(try contents(path), original)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    func testDatabaseWithDamagedPagesIsRefusedAsCorruptAndLeftByteIdentical() throws {
        let path = directory.path("usefulmap.sqlite")
        do {
            let store = try Store(path: path)
            var random = SeededRandom(seed: 11)
            for index in 0..<40 { _ = try store.write(Plans.create(RandomPlans.plan(&random), title: "plan \(index)")) }
        }
        var bytes = try contents(path)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        XCTAssertGreaterThan(bytes.count, pageSize * 6, "the database has pages to damage")
        // Keep the header and schema page; scribble over the pages holding the plans.
        for offset in stride(from: pageSize * 3, to: bytes.count, by: 97) { bytes[offset] ^= 0x5A }
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Store(path: path)) { error in
            XCTAssertEqual((error as? StoreError)?.code, "corrupt_database", "\(error)")
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
        XCTAssertEqual(try contents(path), bytes)
    }

    func testFileWithADamagedHeaderIsRefusedAsNotADatabase() throws {
        let path = directory.path("usefulmap.sqlite")
        _ = try Store(path: path)
        var bytes = try contents(path)
        bytes.replaceSubrange(0..<6, with: Data("XQLite".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Store(path: path)) { XCTAssertEqual(($0 as? StoreError)?.code, "not_a_database") }
        XCTAssertEqual(try contents(path), bytes)
    }

    /// Root ignores directory permissions, so the check runs in the helper process, switched to
    /// user "nobody" when the tests run as root.
    func openInChild(_ path: String) throws -> String {
        let environment = geteuid() == 0 ? ["USEFULMAP_CHILD_UID": "65534"] : [:]
        let child = try CrashChild(["open", path], environment: environment)
        return child.finish().joined(separator: "\n")
    }

    func testReadOnlyDirectoryGivesAClearErrorForANewAndAnExistingDatabase() throws {
        let readOnly = directory.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
        _ = try Store(path: readOnly.appendingPathComponent("existing.sqlite").path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly.path) }

        for name in ["new.sqlite", "existing.sqlite"] {
            let path = readOnly.appendingPathComponent(name).path
            let output = try openInChild(path)
            XCTAssertTrue(output.hasPrefix("ERROR read_only_directory"), "\(name): \(output)")
            XCTAssertTrue(output.contains(path) && output.contains("not writable"), output)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: readOnly.appendingPathComponent("new.sqlite").path))
        let writable = directory.url.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: writable, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o777])
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: writable.path)
        XCTAssertEqual(try openInChild(writable.appendingPathComponent("writable.sqlite").path), "OPENED",
                       "the same helper, as the same user, can open a database where it may write")
    }

    func testDefaultPathFollowsXDGDataHomeElseHome() {
        XCTAssertEqual(Store.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]),
                       "/data/usefulmap/usefulmap.sqlite")
        XCTAssertEqual(Store.defaultPath(environment: ["HOME": "/home/u"]),
                       "/home/u/.local/share/usefulmap/usefulmap.sqlite")
        XCTAssertEqual(Store.defaultPath(environment: ["XDG_DATA_HOME": "relative/ignored", "HOME": "/home/u"]),
                       "/home/u/.local/share/usefulmap/usefulmap.sqlite", "the XDG spec ignores relative paths")
    }

    func testStoreIsConfiguredForDurability() throws {
        let path = directory.path("usefulmap.sqlite")
        _ = try Store(path: path)
        let db = try Database(path: path)
        XCTAssertEqual(try db.journalMode(), "wal", "journal mode persists in the file")
    }

    func testConcurrentCallsFromManyThreadsAreSerialisedSafely() throws {
        let store = try Store(path: directory.path("usefulmap.sqlite"))
        let place = Place(name: "p", coordinate: Coordinate(latitude: 61, longitude: 23))
        let failures = NSLock()
        nonisolated(unsafe) var errors: [Error] = []
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                for step in 0..<10 {
                    let plan = try RoutePlan(nodes: [PlanNode(place: place), PlanNode(place: place)], modes: [.walk])
                    let id = try store.write(Plans.create(plan, title: "w\(worker)-\(step)"))
                    _ = try store.read(Plans.load(id))
                    try store.write(History.recordSearch(SearchHistoryEntry(query: "w\(worker)-\(step)", date: Date())))
                    _ = try store.read(Plans.list())
                }
            } catch {
                failures.withLock { errors.append(error) }
            }
        }
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(try store.read(Plans.list()).count, 80)
        XCTAssertEqual(try store.read(History.searches()).count, Store.historyLimit)
    }
}
