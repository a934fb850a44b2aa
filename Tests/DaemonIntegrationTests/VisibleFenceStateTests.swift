import Foundation
import WireProtocol
import XCTest

/// A fence is part of its place's state: `place list` shows it (table and JSON), and `status`
/// lists every fence that is on from the start, also straight after a restart, as unknown until
/// a fix decides it (issue 28 item 5).
final class VisibleFenceStateTests: XCTestCase {
    static let home = "61.49780,23.76100"
    static let work = "61.45020,23.85100"

    func testPlaceListShowsEachFenceAndStatusListsFencesAsUnknownStraightAfterARestart() throws {
        let harness = try startDaemon()
        XCTAssertEqual(try harness.umctl(["place", "save", "Home", Self.home]).status, 0)
        XCTAssertEqual(try harness.umctl(["place", "save", "Work", Self.work]).status, 0)
        let fenced = try harness.umctl(["place", "fence", "Home", "on"])
        XCTAssertEqual(fenced.status, 0, fenced.stderr)

        let places = try XCTUnwrap(harness.json(["place", "list"])["places"]?.arrayValue)
        let home = try XCTUnwrap(places.first { $0["name"] == .string("Home") })
        XCTAssertEqual(home["geofence"]?["on"], .bool(true), "\(home)")
        XCTAssertEqual(home["geofence"]?["radius_m"], .number(80))
        XCTAssertEqual(home["geofence"]?["state"], .string("unknown"))
        XCTAssertEqual(places.first { $0["name"] == .string("Work") }?["geofence"], .null, "a place that never had a fence")
        let table = try harness.umctl(["place", "list"]).stdout
        XCTAssertTrue(table.split(separator: "\n").first?.contains("geofence") == true, table)
        XCTAssertTrue(table.contains("on 80/120 m, unknown until a fix"), table)

        // Before any fix the fence is listed, not left out.
        let before = try harness.json(["status"])
        XCTAssertEqual(before["location"]?["fences"], .array([.object(["place": .string("Home"), "state": .string("unknown")])]))

        XCTAssertEqual(try harness.umctl(["location", "set", Self.home, "--accuracy", "10"]).status, 0)
        XCTAssertTrue(try harness.umctl(["place", "list"]).stdout.contains("on 80/120 m, inside"))
        XCTAssertEqual(try harness.json(["status"])["location"]?["fences"],
                       .array([.object(["place": .string("Home"), "state": .string("inside")])]))

        // A fence turned off shows as off, and status leaves it out.
        XCTAssertEqual(try harness.umctl(["place", "fence", "Work", "on"]).status, 0)
        XCTAssertEqual(try harness.umctl(["place", "fence", "Work", "off"]).status, 0)
        let listed = try XCTUnwrap(harness.json(["place", "list"])["places"]?.arrayValue)
        let work = try XCTUnwrap(listed.first { $0["name"] == .string("Work") })
        XCTAssertEqual(work["geofence"]?["on"], .bool(false), "\(work)")
        XCTAssertEqual(work["geofence"]?["state"], .string("off"))

        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start()
        let after = try harness.json(["status"])
        XCTAssertEqual(after["location"]?["fences"], .array([.object(["place": .string("Home"), "state": .string("unknown")])]),
                       "straight after a restart, before any fix")
        let status = try harness.umctl(["status"]).stdout
        XCTAssertTrue(status.contains("fences:    Home unknown until a fix"), status)
    }
}
