import Foundation
import Planner
import SQLite
@testable import Store
import TestSupport
import XCTest

final class MigrationTests: XCTestCase {
    var directory: TemporaryDirectory!
    var path: String { directory.path("usefulmap.sqlite") }

    override func setUpWithError() throws { directory = try TemporaryDirectory("migrations") }
    override func tearDown() { directory.remove() }

    static var migrationsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations")
    }

    /// The database file and its WAL/SHM companions, byte for byte.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            files[suffix] = try Data(contentsOf: URL(fileURLWithPath: path + suffix))
        }
        return files
    }

    func assertOpeningFails(_ code: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try snapshot()
        XCTAssertThrowsError(try Store(path: path), file: file, line: line) { error in
            XCTAssertEqual((error as? StoreError)?.code, code, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(self.path), "the message names the file: \(error)", file: file, line: line)
        }
        XCTAssertEqual(try snapshot(), before, "the file was left byte-identical", file: file, line: line)
    }

    /// Makes a change with a plain connection, then closes it so everything is in the main file.
    func alter(_ sql: String) throws {
        let db = try Database(path: path)
        try db.execute(sql)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
    }

    // MARK: - The embedded set

    func testEmbeddedMigrationsAreExactlyTheFilesInTheMigrationsDirectory() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsDirectory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        XCTAssertFalse(names.isEmpty, "no migrations found at \(Self.migrationsDirectory.path)")
        XCTAssertEqual(Migration.embedded.map(\.fileName), names,
                       "stale embedded set: after removing or renaming a migration, touch Package.swift and rebuild")
        for migration in Migration.embedded {
            let data = try Data(contentsOf: Self.migrationsDirectory.appendingPathComponent(migration.fileName))
            XCTAssertEqual(Array(migration.sql.utf8), Array(data), "\(migration.fileName) differs from the embedded text")
            XCTAssertEqual(migration.fileName, String(format: "%04d_%@.sql", migration.version, migration.name))
        }
        XCTAssertEqual(Migration.embedded.map(\.version), Array(1...names.count))
    }

    func testChecksumIsSHA256OfTheFileBytes() {
        func checksum(_ text: String) -> String { Migration(version: 1, name: "x", fileName: "", sql: text).checksum }
        XCTAssertEqual(checksum(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(checksum("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(checksum("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(checksum(String(repeating: "a", count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Databases made by earlier builds hold these checksums: whatever computes them must keep
    /// giving exactly what `sha256sum` prints for each file.
    func testEveryMigrationChecksumIsWhatSha256sumPrintsForItsFile() throws {
        for migration in Migration.embedded {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            process.arguments = [Self.migrationsDirectory.appendingPathComponent(migration.fileName).path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            XCTAssertEqual(printed.split(separator: " ").first.map(String.init), migration.checksum, migration.fileName)
        }
    }

    /// A released migration is never edited, not even a comment: databases hold its checksum
    /// and refuse to open when the file changes (`checksum_mismatch`). A new step is a new file.
    func testReleasedMigrationsKeepTheChecksumsDatabasesRecorded() {
        let released: [Int: String] = [
            1: "4b35d2d990286e8a16bc7a6043095363fa2e13eb0bbea39c962b3c5b1fcdffbc",
            2: "e8405755f9b4b2bb56146bd393c8522093dc64ef2121338763e7ae8524665010",
            3: "abb8102b6f907840d714e2729bfa46ce8d968843c7c80571f28ba539809c6bf1",
            4: "a1e6a48e7beafaa893b95e6d17d3ac7335bd5fb2f7160c71b892747b5b424b03",
            5: "9161c9f4803f0bc8b20b4bcf5d796774e319607c7fd2eaf793f54b4831fe2362",
            6: "a3eb906cbfa28cec9dc6eabe6a95e2f7cb26832912cb1e0cb2ca59a93ab86412",
            7: "7df254840a6d49aa887125343bbdb16002eb76509451dca72d2789af9ef3d342",
            8: "f364605bcfd022455d3b13070b8c445c8127ea5f459354f133bd37672b93fe39",
        ]
        for migration in Migration.embedded {
            guard let checksum = released[migration.version] else { continue }
            XCTAssertEqual(migration.checksum, checksum, "\(migration.fileName) was edited after release")
        }
        XCTAssertEqual(Set(released.keys).subtracting(Migration.embedded.map(\.version)), [], "no released step is gone")
    }

    // MARK: - Applying

    func testFreshDatabaseRecordsEveryMigrationWithItsChecksumAndTime() throws {
        let clock = TestClock()
        let store = try Store(path: path, clock: clock)
        let applied = try store.read(Maintenance.appliedMigrations())
        XCTAssertEqual(applied.map(\.version), Migration.embedded.map(\.version))
        XCTAssertEqual(applied.map(\.name), Migration.embedded.map(\.name))
        XCTAssertEqual(applied.map(\.checksum), Migration.embedded.map(\.checksum))
        XCTAssertTrue(applied.allSatisfy { $0.appliedAt == clock.now() })
        XCTAssertEqual(try store.read(Maintenance.schemaVersion()), Migration.latestVersion)
    }

    func testMigrationThatFailsHalfwayLeavesNoTraceAndIsNotRecorded() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        let broken = Migration(version: Migration.latestVersion + 1, name: "broken", fileName: "broken.sql",
                               sql: "CREATE TABLE half_done(x); INSERT INTO no_such_table VALUES (1);")
        let migrator = Migrator(migrations: Migration.embedded + [broken], path: path)
        XCTAssertThrowsError(try migrator.migrate(db))
        XCTAssertEqual(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'"), .integer(0))
        XCTAssertEqual(try Migrator.applied(db).map(\.version), Migration.embedded.map(\.version),
                       "the earlier steps, each in its own transaction, stay applied")
    }

    func testPinSavedBeforeThePinnedLegColumnLoadsWithoutALeg() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(2)), path: path).migrate(db)
        // A pinned plan as the store wrote it before 0003 (no `leg` column yet).
        try db.execute("""
            INSERT INTO plan(id, title, time_preference, time_preference_at, pace, from_name, to_name,
                             total_travel_time, created_at, updated_at)
            VALUES (1, 'old pin', 'leave_now', NULL, 'normal', 'A', 'B', NULL, 700000000, 700000000);
            INSERT INTO plan_node VALUES (1, 0, 'A', 61.49, 23.76, NULL, 0, 0), (1, 1, 'B', 61.45, 23.85, NULL, 0, 0);
            INSERT INTO plan_segment(plan_id, position, mode) VALUES (1, 0, 'transit');
            """)
        try db.execute("INSERT INTO plan_pinned_departure VALUES (1, ?, ?, 700000000, 600, ?)",
                       ["A@61.4900000,23.7600000", "B@61.4500000,23.8500000", .blob(LegBlob.encode(strings: ["t1"]))])
        db.close()

        let pinned = try XCTUnwrap(try Store(path: path).read(Plans.load(1)).plan.pinned)
        XCTAssertEqual(pinned.duration, 600)
        XCTAssertEqual(pinned.tripIDs, ["t1"])
        XCTAssertEqual(pinned.departure, Date(timeIntervalSinceReferenceDate: 700_000_000))
        XCTAssertNil(pinned.leg)
    }

    func testPlanSavedBeforeStaysAndChoicesLoadsWithoutThem() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(3)), path: path).migrate(db)
        // A locked plan as the store wrote it before 0004 (no stay or chosen-lines columns yet).
        try db.execute("""
            INSERT INTO plan(id, title, time_preference, time_preference_at, pace, from_name, to_name,
                             total_travel_time, created_at, updated_at)
            VALUES (1, 'old day', 'leave_now', NULL, 'normal', 'A', 'B', NULL, 700000000, 700000000);
            INSERT INTO plan_node VALUES (1, 0, 'A', 61.49, 23.76, NULL, 0, 0), (1, 1, 'B', 61.45, 23.85, NULL, 0, 0);
            INSERT INTO plan_segment(plan_id, position, mode) VALUES (1, 0, 'car');
            INSERT INTO plan_lock VALUES (1, 'A@61.4900000,23.7600000', 'B@61.4500000,23.8500000', 'car', NULL, NULL);
            """)
        db.close()

        let plan = try Store(path: path).read(Plans.load(1)).plan
        XCTAssertEqual(plan.nodes.map(\.stay), [nil, nil])
        XCTAssertEqual(plan.lock(ofSegment: 0), SegmentLock(mode: .car))
    }

    /// Schema 16 keys a segment's decisions by its ends and which occurrence of that pair it is;
    /// every decision stored before is the first occurrence's, and the plan reads back as it was.
    func testDecisionsStoredBeforeOccurrencesReadBackOnTheFirstSegmentBetweenTheirPlaces() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(15)), path: path).migrate(db)
        let a = Place(name: "A", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))
        let b = Place(name: "B", coordinate: Coordinate(latitude: 61.45, longitude: 23.85))
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let ride = RouteLeg(mode: .transit, expectedTravelTime: 600, departure: start, arrival: start + 600)
        let later = RouteLeg(mode: .transit, expectedTravelTime: 660, departure: start + 600, arrival: start + 1_260)
        // A pinned plan with a proposal and a dismissal, as the store wrote it at schema 15.
        try db.execute("""
            INSERT INTO plan(id, title, time_preference, time_preference_at, pace, from_name, to_name,
                             total_travel_time, created_at, updated_at, legs_pending, access, generation)
            VALUES (1, 'old pin', 'depart_at', 700000000, 'normal', 'A', 'B', NULL, 700000000, 700000000, 0, 'any', 4);
            INSERT INTO plan_node VALUES (1, 0, 'A', 61.49, 23.76, NULL, 0, 0, NULL, NULL), (1, 1, 'B', 61.45, 23.85, NULL, 0, 0, NULL, NULL);
            INSERT INTO plan_segment(plan_id, position, mode) VALUES (1, 0, 'transit');
            """)
        try db.execute("INSERT INTO plan_lock VALUES (1, ?, ?, 'transit', 700000000, 600, NULL, NULL)", [.text(a.id), .text(b.id)])
        try db.execute("INSERT INTO plan_pinned_departure VALUES (1, ?, ?, 700000000, 600, ?, ?)",
                       [.text(a.id), .text(b.id), .blob(LegBlob.encode(strings: ["t1"])), .blob(LegBlob.encode(leg: ride))])
        try db.execute("INSERT INTO plan_pending_update VALUES (1, ?, ?, ?, ?)",
                       [.text(a.id), .text(b.id), .blob(LegBlob.encode(leg: ride)), .blob(LegBlob.encode(leg: later))])
        try db.execute("INSERT INTO plan_dismissed_update VALUES (1, ?, ?, ?)",
                       [.text(a.id), .text(b.id), .blob(LegBlob.encode(leg: later))])
        db.close()

        let key = SegmentKey(fromID: a.id, toID: b.id, occurrence: 0)
        let expected = try RoutePlan(restoring: [PlanNode(place: a), PlanNode(place: b)], modes: [.transit], legs: [nil],
                                     timePreference: .departAt(start), pace: .normal,
                                     locks: [key: SegmentLock(mode: .transit, departure: start, duration: 600)],
                                     pins: [PinnedDeparture(segment: key, departure: start, duration: 600, tripIDs: ["t1"], leg: ride)],
                                     pending: [key: PendingSegmentUpdate(segment: key, selected: ride, proposal: .ride(later))],
                                     dismissed: [key: later])
        let store = try Store(path: path)
        XCTAssertEqual(try store.read(Maintenance.schemaVersion()), Migration.latestVersion)
        let loaded = try store.read(Plans.load(1))
        XCTAssertEqual(loaded.plan, expected)
        XCTAssertEqual(loaded.generation, 4)
        XCTAssertEqual(loaded.plan.pinnedSegmentIndices, [0])
        // Saved again by this version, it reads back the same.
        try store.write(Plans.save(id: 1, plan: loaded.plan, title: loaded.title, generation: 5))
        XCTAssertEqual(try store.read(Plans.load(1)).plan, expected)
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
    }

    func testTheStaysAndChoicesStepIsEmbeddedWithTheChecksumOfItsFile() throws {
        let step = try XCTUnwrap(Migration.embedded.first { $0.name == "plan_stays_and_choices" })
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations/\(step.fileName)")
        let onDisk = Migration(version: step.version, name: step.name, fileName: step.fileName,
                               sql: try String(contentsOf: file, encoding: .utf8))
        XCTAssertEqual(step.checksum, onDisk.checksum)
        XCTAssertEqual(try Store(path: path).read(Maintenance.appliedMigrations()).first { $0.version == step.version }?.checksum, step.checksum)
    }

    func testHistoryWrittenBeforeTheOrderColumnKeepsItsOrderAndNumbers() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(7)), path: path).migrate(db)
        try db.execute("""
            INSERT INTO search_history(sequence, entry_id, query, recorded_at) VALUES
                (3, 'query:a', 'a', 700000001), (8, 'query:b', 'b', 700000002), (9, 'query:c', 'c', 700000003);
            """)
        db.close()

        let store = try Store(path: path)
        let history = try store.read(History.searches(HistoryFilter()))
        XCTAssertEqual(history.map(\.entry.query), ["c", "b", "a"])
        XCTAssertEqual(history.map(\.number), [9, 8, 3])
        try store.write(History.recordSearch(SearchHistoryEntry(query: "a", date: Date(timeIntervalSinceReferenceDate: 700_000_004))))
        let repeated = try store.read(History.searches(HistoryFilter()))
        XCTAssertEqual(repeated.map(\.entry.query), ["a", "c", "b"])
        XCTAssertEqual(repeated.map(\.number), [3, 9, 8])
    }

    func testPlansKeptThroughTheAutoincrementStepKeepEveryRowAndADeletedIDIsNeverGivenAgain() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(8)), path: path).migrate(db)
        // Two plans as the store wrote them before 0009, with a row in every child table.
        try db.execute("""
            INSERT INTO plan(id, title, time_preference, time_preference_at, pace, from_name, to_name,
                             total_travel_time, created_at, updated_at)
            VALUES (1, 'first', 'leave_now', NULL, 'normal', 'A', 'B', NULL, 700000000, 700000000),
                   (2, 'second', 'depart_at', 700000100, 'fast', 'A', 'B', NULL, 700000000, 700000000);
            INSERT INTO plan_node VALUES (1, 0, 'A', 61.49, 23.76, NULL, 0, 0, NULL, NULL), (1, 1, 'B', 61.45, 23.85, NULL, 0, 0, 600, NULL),
                                         (2, 0, 'A', 61.49, 23.76, NULL, 0, 0, NULL, NULL), (2, 1, 'B', 61.45, 23.85, NULL, 0, 0, NULL, NULL);
            INSERT INTO plan_segment(plan_id, position, mode) VALUES (1, 0, 'transit'), (2, 0, 'walk');
            INSERT INTO plan_lock(plan_id, from_place_id, to_place_id, mode)
                VALUES (1, 'A@61.4900000,23.7600000', 'B@61.4500000,23.8500000', 'transit');
            """)
        try db.execute("INSERT INTO plan_pinned_departure(plan_id, from_place_id, to_place_id, departure, duration, trip_ids) VALUES (1, ?, ?, 700000000, 600, ?)",
                       ["A@61.4900000,23.7600000", "B@61.4500000,23.8500000", .blob(LegBlob.encode(strings: ["t1"]))])
        db.close()

        let store = try Store(path: path)
        let first = try store.read(Plans.load(1)).plan
        XCTAssertEqual(first.nodes.count, 2)
        XCTAssertEqual(first.nodes[1].stay, .duration(600))
        XCTAssertEqual(first.pinned?.tripIDs, ["t1"])
        XCTAssertEqual(first.locks.count, 1)
        XCTAssertEqual(try store.read(Plans.load(2)).plan.pace, .fast)
        try store.write(Plans.delete(2))
        let next = try store.write(Plans.create(first, title: "third"))
        XCTAssertEqual(next, 3, "plan 2's ID is not given again")
        try store.write(Plans.delete(next))
        XCTAssertEqual(try store.write(Plans.create(first, title: "fourth")), 4)
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
    }

    func testUpgradeFromTheFirstMigrationKeepsItsData() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(1)), path: path).migrate(db)
        XCTAssertEqual(try Migrator.applied(db).map(\.version), [1])
        // Rows as the first schema's store wrote them.
        try db.execute("""
            INSERT INTO saved_place(name, place_id, place_name, latitude, longitude, kind, note, created_at, updated_at)
            VALUES ('Home', 'Hämeenkatu 10@61.4981000,23.7610000', 'Hämeenkatu 10', 61.4981, 23.761, 'address',
                    'blue door', 700000000, 700000000);
            INSERT INTO search_history(entry_id, query, place_name, latitude, longitude, kind, recorded_at)
            VALUES ('query:ratina', 'ratina', NULL, NULL, NULL, NULL, 700000001);
            INSERT INTO route_history(entry_id, from_name, from_latitude, from_longitude, from_kind,
                to_name, to_latitude, to_longitude, to_kind, modes, recorded_at)
            VALUES ('x', 'Home', 61.4981, 23.761, 'saved', 'Hervanta', 61.45, 23.85, NULL, 'walk,transit', 700000002);
            """)
        db.close()

        let store = try Store(path: path)
        XCTAssertEqual(try store.read(Maintenance.schemaVersion()), Migration.latestVersion)
        XCTAssertEqual(try store.read(Maintenance.appliedMigrations()).map(\.version), Migration.embedded.map(\.version))
        let home = Place(name: "Hämeenkatu 10", coordinate: Coordinate(latitude: 61.4981, longitude: 23.761), kind: .address)
        XCTAssertEqual(try store.read(Places.all()), [SavedPlace(name: "Home", place: home, note: "blue door")])
        XCTAssertEqual(try store.read(History.searches()),
                       [SearchHistoryEntry(query: "ratina", date: Date(timeIntervalSinceReferenceDate: 700_000_001))])
        let route = try XCTUnwrap(try store.read(History.routes()).first)
        XCTAssertEqual(route.modes, [.walk, .transit])
        XCTAssertEqual(route.to.name, "Hervanta")
        XCTAssertEqual(route.from.kind, .saved)
        XCTAssertNil(route.fromText, "fields of later schemas are nil in older entries")
        XCTAssertNil(route.requestedTime)
        XCTAssertNil(route.answers)
        XCTAssertNil(route.compare, "a comparison recorded before schema 17 has no options (rerun with the defaults)")
        XCTAssertNil(try store.read(History.searches()).first?.region)
        // Schema 17: a comparison's options are kept on the upgraded file.
        let asked = RouteHistoryEntry(from: home, to: route.to, modes: [.walk], date: Date(timeIntervalSinceReferenceDate: 700_000_003),
                                      compare: CompareRequest(pace: .slow, access: .wheelchairStrict, modes: [.walk, .transit]))
        try store.write(History.recordRoute(asked))
        XCTAssertEqual(try store.read(History.routes()).first?.compare, asked.compare)
        // And the newer tables work on the upgraded file.
        let plan = try RoutePlan(nodes: [PlanNode(place: home), PlanNode(place: route.to.self)], modes: [.transit])
        let id = try store.write(Plans.create(plan, title: "upgraded"))
        XCTAssertEqual(try store.read(Plans.load(id)).plan, plan)
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
    }

    // MARK: - Refusing

    func testDatabaseFromANewerVersionIsRefusedAndLeftByteIdentical() throws {
        _ = try Store(path: path)
        try alter("""
            INSERT INTO schema_migration(version, name, checksum, applied_at)
            VALUES (\(Migration.latestVersion + 1), 'from_the_future', 'abc', 0)
            """)
        try assertOpeningFails("newer_schema")
        XCTAssertThrowsError(try Store(path: path)) { error in
            XCTAssertTrue("\(error)".contains("schema version \(Migration.latestVersion + 1)"), "\(error)")
        }
    }

    func testEditedMigrationIsRefusedAsAChecksumMismatchAndLeftByteIdentical() throws {
        _ = try Store(path: path)
        try alter("UPDATE schema_migration SET checksum = 'edited' WHERE version = 1")
        try assertOpeningFails("checksum_mismatch")
        XCTAssertThrowsError(try Store(path: path)) { error in
            XCTAssertTrue("\(error)".contains(Migration.embedded[0].fileName), "\(error)")
        }
    }

    func testSQLiteFileFromAnotherProgramIsRefusedAndLeftByteIdentical() throws {
        try alter("CREATE TABLE notes(text TEXT); INSERT INTO notes VALUES ('mine')")
        try assertOpeningFails("foreign_database")
    }
}
