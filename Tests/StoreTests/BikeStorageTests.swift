import Foundation
import Planner
import SQLite
@testable import Store
import TestSupport
import XCTest

/// Bike plans and the `bike` preset in the user database, and the 0011 step that allows it.
final class BikeStorageTests: XCTestCase {
    var directory: TemporaryDirectory!
    var path: String { directory.path("usefulmap.sqlite") }

    override func setUpWithError() throws { directory = try TemporaryDirectory("bike") }
    override func tearDown() { directory.remove() }

    static let home = Place(name: "Home", coordinate: Coordinate(latitude: 61.4981, longitude: 23.761), kind: .address)
    static let office = Place(name: "Office", coordinate: Coordinate(latitude: 61.45, longitude: 23.85))

    func bikePlan() throws -> RoutePlan {
        let leg = RouteLeg(mode: .bike, expectedTravelTime: 1_260, distance: 6_100,
                           geometry: [Self.home.coordinate, Self.office.coordinate])
        let plan = try RoutePlan(restoring: [PlanNode(place: Self.home), PlanNode(place: Self.office)], modes: [.bike],
                                 legs: [leg], timePreference: .departAt(Date(timeIntervalSinceReferenceDate: 800_000_000)),
                                 pace: .normal, locks: [:], pinned: nil, pending: [:])
        return try plan.changingMode(ofSegment: 0, to: .bike)
    }

    func testABikePlanAndTheBikePresetEntryThatMadeItRoundTrip() throws {
        let store = try Store(path: path)
        let plan = try bikePlan()
        let request = PlanRequest(via: [], viaTexts: [], preset: .bike, pace: .normal, title: "ride", titleGiven: true)
        let entry = RouteHistoryEntry(from: Self.home, to: Self.office, modes: [.bike], date: Date(timeIntervalSinceReferenceDate: 800_000_000),
                                      answers: [.init(mode: .walk, durationS: 4_000), .init(mode: .bike, durationS: 1_260)],
                                      fastest: .bike, plan: request)
        let id = try store.write(Plans.create(plan, title: "ride", recording: entry))
        let loaded = try store.read(Plans.load(id)).plan
        XCTAssertEqual(loaded, plan)
        XCTAssertEqual(loaded.legs[0]?.mode, .bike)
        XCTAssertEqual(loaded.locks.values.map(\.mode), [.bike])
        let recorded = try XCTUnwrap(try store.read(History.routes()).first)
        XCTAssertEqual(recorded.plan?.preset, .bike)
        XCTAssertEqual(recorded.modes, [.bike])
        XCTAssertEqual(recorded.fastest, .bike)
        XCTAssertEqual(recorded.answers?.last?.mode, .bike)
    }

    /// Issue 24 (migration 0013): a plan's step-free setting is stored with it; a plan stored
    /// before the column reads as `any`.
    func testAPlansAccessRoundTripsAndAPlanFromBeforeTheColumnReadsAsAny() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(12)), path: path).migrate(db)
        try db.execute("""
            INSERT INTO plan(title, time_preference, pace, from_name, to_name, created_at, updated_at)
            VALUES ('before', 'leave_now', 'normal', 'Home', 'Office', 700000000, 700000000)
            """)
        db.close()
        let store = try Store(path: path)
        let check = try Database(path: path, mode: .readOnly)
        XCTAssertEqual(try check.query("SELECT access FROM plan WHERE title = 'before'", [], { $0.string(0) }), ["any"])
        check.close()
        let plan = try bikePlan().settingAccess(.wheelchairStrict)
        let id = try store.write(Plans.create(plan, title: "step-free"))
        XCTAssertEqual(try store.read(Plans.load(id)).plan.access, .wheelchairStrict)
        try store.write(Plans.save(id: id, plan: plan.settingAccess(.wheelchair), title: "step-free", generation: 2))
        XCTAssertEqual(try store.read(Plans.load(id)).plan, plan.settingAccess(.wheelchair))
    }

    func testRouteHistoryKeptThroughTheBikeStepKeepsRowsViasAndNumbers() throws {
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(10)), path: path).migrate(db)
        // Two entries as schema 10 wrote them, one a plan's with a via, and a deleted entry 9
        // whose number must not come back.
        try db.execute("""
            INSERT INTO route_history(sequence, entry_id, from_name, from_latitude, from_longitude, from_kind,
                to_name, to_latitude, to_longitude, to_kind, modes, recorded_at, region, from_text, to_text,
                time_kind, requested_time, answers, fastest, position, plan_preset, plan_pace, plan_title, plan_title_given)
            VALUES (3, 'a', 'Home', 61.4981, 23.761, NULL, 'Office', 61.45, 23.85, NULL, 'car', 700000001, 'tampere',
                    'home', 'office', 'leave_now', NULL, 'walk=4000,transit=,car=700', 'car', 3, NULL, NULL, NULL, NULL),
                   (7, 'b', 'Home', 61.4981, 23.761, NULL, 'Office', 61.45, 23.85, NULL, 'walk,transit', 700000002, 'tampere',
                    NULL, NULL, 'depart_at', 700000100, NULL, NULL, 7, 'transit', 'fast', 'to work', 1),
                   (9, 'c', 'Home', 61.4981, 23.761, NULL, 'Far', 61.0, 23.0, NULL, 'car', 700000003, NULL,
                    NULL, NULL, NULL, NULL, NULL, NULL, 9, NULL, NULL, NULL, NULL);
            INSERT INTO route_history_via(sequence, position, place_name, latitude, longitude, kind, typed_text)
                VALUES (7, 0, 'Ratina', 61.49, 23.765, NULL, 'ratina');
            DELETE FROM route_history WHERE sequence = 9;
            """)
        XCTAssertThrowsError(try db.execute("UPDATE route_history SET plan_preset = 'bike' WHERE sequence = 7"),
                             "schema 10 refuses the bike preset")
        db.close()

        let store = try Store(path: path)
        XCTAssertEqual(try store.read(Maintenance.schemaVersion()), Migration.latestVersion, "every later step ran too")
        let before = try store.read(History.routes(HistoryFilter()))
        XCTAssertEqual(before.map(\.number), [7, 3])
        XCTAssertEqual(before[0].entry.plan?.preset, .transit)
        XCTAssertEqual(before[0].entry.plan?.pace, .fast)
        XCTAssertEqual(before[0].entry.plan?.via.map(\.name), ["Ratina"])
        XCTAssertEqual(before[0].entry.plan?.viaTexts, ["ratina"])
        XCTAssertEqual(before[1].entry.answers?.map(\.durationS), [4000, nil, 700])
        XCTAssertEqual(before[1].entry.fromText, "home")

        let request = PlanRequest(via: [], viaTexts: [], preset: .bike, pace: .normal, title: "ride", titleGiven: false)
        _ = try store.write(Plans.create(try bikePlan(), title: "ride", recording: RouteHistoryEntry(
            from: Self.office, to: Self.home, modes: [.bike], date: Date(timeIntervalSinceReferenceDate: 800_000_000), plan: request)))
        let after = try store.read(History.routes(HistoryFilter()))
        XCTAssertEqual(after.map(\.number), [10, 7, 3], "the deleted entry's number 9 is not given again")
        XCTAssertEqual(after[0].entry.plan?.preset, .bike)
        // The via rows still follow their entry: deleting it removes them (ON DELETE CASCADE).
        try store.write(History.deleteRoute(number: 7))
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
        let check = try Database(path: path)
        defer { check.close() }
        XCTAssertEqual(try check.query("SELECT count(*) FROM route_history_via") { $0.int64(0) }, [0])
        XCTAssertEqual(try check.query("PRAGMA foreign_key_check") { $0.string(0) }.count, 0)
    }
}
