import Foundation
import Planner
import Store
import TestSupport
import XCTest

/// A store on a new file holding one plan, a walk from A to B (`id`), for the tests of how
/// plan edits use the store: EditStoreAccessTests, StoredGenerationRulesTests.
class OneStoredPlanTestCase: XCTestCase {
    var directory: URL!
    var store: Store!
    var id: Int64 = 0
    /// The store's file, for a second connection that reads or breaks it behind the store's back.
    var databasePath: String { directory.appendingPathComponent("db.sqlite").path }

    override func setUp() async throws {
        directory = try DaemonHarness.temporaryDirectory()
        store = try Store(path: databasePath)
        let a = Place(name: "A", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))
        let b = Place(name: "B", coordinate: Coordinate(latitude: 61.45, longitude: 23.85))
        id = try await store.write(Plans.create(try RoutePlan(nodes: [PlanNode(place: a), PlanNode(place: b)], modes: [.walk]), title: "t"))
    }

    override func tearDown() {
        store = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }
}
