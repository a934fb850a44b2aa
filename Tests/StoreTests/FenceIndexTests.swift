import Foundation
import SQLite
@testable import Store
import TestSupport
import XCTest

/// Issue 27 (speed): `status` lists the fences on every call; that read goes through the
/// fenced places' index instead of walking every saved place.
final class FenceIndexTests: XCTestCase {
    func testTheFenceListReadsOnlyTheFencedPlacesThroughTheirIndex() throws {
        let directory = try TemporaryDirectory("fence-index")
        defer { directory.remove() }
        let path = directory.path("usefulmap.sqlite")
        _ = try Store(path: path)
        let database = try Database(path: path, mode: .readOnly)
        let plan = try database.query("EXPLAIN QUERY PLAN " + Geofences.fencesQuery) { $0.string(3) }
        XCTAssertEqual(plan.count, 1, "\(plan)")
        XCTAssertTrue(plan.first?.contains("saved_place_fenced") == true, "the read walks something else: \(plan)")
    }
}
