import Foundation
import Planner
import SQLite
@testable import Store
import TestSupport
import XCTest

/// A plan's generation is stored with it (schema 15, issue 27): written in the same transaction
/// as the change that took it, read back by `Plans.load`.
final class PlanGenerationStorageTests: XCTestCase {
    var directory: TemporaryDirectory!
    var store: Store!
    var path: String { directory.path("usefulmap.sqlite") }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("generations")
        store = try Store(path: path)
    }

    override func tearDown() {
        store = nil
        directory.remove()
    }

    func walk(_ from: String, _ to: String) throws -> RoutePlan {
        try RoutePlan(nodes: [PlanNode(place: Place(name: from, coordinate: Coordinate(latitude: 61.49, longitude: 23.76))),
                              PlanNode(place: Place(name: to, coordinate: Coordinate(latitude: 61.45, longitude: 23.85)))],
                      modes: [.walk])
    }

    func testANewPlanIsStoredAtGenerationOne() throws {
        let id = try store.write(Plans.create(try walk("a", "b"), title: "new"))
        XCTAssertEqual(try store.read(Plans.load(id)).generation, 1)
    }

    func testEverySaveStoresTheGenerationItIsGivenWithThePlan() throws {
        let id = try store.write(Plans.create(try walk("a", "b"), title: "edited"))
        try store.write(Plans.save(id: id, plan: try walk("a", "c"), title: "edited", legsPending: true, generation: 2))
        XCTAssertEqual(try store.read(Plans.load(id)).generation, 2)
        try store.write(Plans.save(id: id, plan: try walk("a", "d"), title: "kept", generation: 3))
        let loaded = try store.read(Plans.load(id))
        XCTAssertEqual(loaded.generation, 3)
        XCTAssertEqual(loaded.plan.nodes.last?.place.name, "d")
    }

    func testTheGenerationSurvivesReopeningTheFile() throws {
        let id = try store.write(Plans.create(try walk("a", "b"), title: "kept"))
        try store.write(Plans.save(id: id, plan: try walk("a", "c"), title: "kept", generation: 7))
        store = nil
        XCTAssertEqual(try Store(path: path).read(Plans.load(id)).generation, 7)
    }

    func testAFailedSaveLeavesTheGenerationAsStored() throws {
        let id = try store.write(Plans.create(try walk("a", "b"), title: "kept"))
        XCTAssertThrowsError(try store.write(Plans.save(id: id, plan: try walk("a", "c"), title: "https://www.google.com/maps/dir/a/b/data=x",
                                                generation: 2))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "invalid_input")
        }
        XCTAssertEqual(try store.read(Plans.load(id)).generation, 1, "the generation is written with the change, or not at all")
    }

    func testANegativeGenerationIsRefusedNamingItAndChangesNothing() throws {
        let id = try store.write(Plans.create(try walk("a", "b"), title: "kept"))
        XCTAssertThrowsError(try store.write(Plans.save(id: id, plan: try walk("a", "c"), title: "kept", generation: -1))) { error in
            XCTAssertEqual((error as? StoreError)?.code, "invalid_input")
            XCTAssertTrue("\(error)".contains("generation"), "\(error)")
        }
        let loaded = try store.read(Plans.load(id))
        XCTAssertEqual(loaded.generation, 1)
        XCTAssertEqual(loaded.plan.nodes.last?.place.name, "b")
    }

    func testTheGenerationAloneIsStoredLeavingThePlanAsItWas() throws {
        let id = try store.write(Plans.create(try walk("a", "b"), title: "kept"))
        let before = try store.read(Plans.load(id))
        try store.write(Plans.saveGeneration(id: id, generation: 2))
        let after = try store.read(Plans.load(id))
        XCTAssertEqual(after.generation, 2)
        XCTAssertEqual(after.plan, before.plan)
        XCTAssertEqual(after.title, before.title)
        XCTAssertEqual(after.updatedAt, before.updatedAt, "the plan did not change")
        XCTAssertThrowsError(try store.write(Plans.saveGeneration(id: id + 1, generation: 2))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "not_found")
        }
        XCTAssertThrowsError(try store.write(Plans.saveGeneration(id: id, generation: -1))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "invalid_input")
        }
        XCTAssertEqual(try store.read(Plans.load(id)).generation, 2)
    }

    /// A database of schema 14 (before generations were stored) opens with its plans at
    /// generation 0, the number they showed after a restart until then; the next change goes on from it.
    func testAPlanStoredBeforeTheGenerationColumnReadsAtGenerationZero() throws {
        let path = directory.path("schema14.sqlite")
        let db = try Database(path: path)
        try db.configure(.userData)
        try Migrator(migrations: Array(Migration.embedded.prefix(14)), path: path).migrate(db)
        try db.execute("""
            INSERT INTO plan(id, title, time_preference, time_preference_at, pace, from_name, to_name,
                             total_travel_time, created_at, updated_at, legs_pending, access)
            VALUES (1, 'old plan', 'leave_now', NULL, 'normal', 'A', 'B', NULL, 700000000, 700000000, 0, 'any');
            INSERT INTO plan_node VALUES (1, 0, 'A', 61.49, 23.76, NULL, 0, 0, NULL, NULL), (1, 1, 'B', 61.45, 23.85, NULL, 0, 0, NULL, NULL);
            INSERT INTO plan_segment(plan_id, position, mode) VALUES (1, 0, 'walk');
            """)
        db.close()

        store = try Store(path: path)
        XCTAssertEqual(try store.read(Maintenance.schemaVersion()), Migration.latestVersion)
        let old = try store.read(Plans.load(1))
        XCTAssertEqual(old.generation, 0)
        XCTAssertEqual(old.title, "old plan")
        try store.write(Plans.save(id: 1, plan: old.plan, title: old.title, generation: 1))
        XCTAssertEqual(try store.read(Plans.load(1)).generation, 1)
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
    }
}
