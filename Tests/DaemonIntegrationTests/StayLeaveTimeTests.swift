import Foundation
import WireProtocol
import XCTest

/// A node with a stay says when the traveller leaves it: when the next leg really leaves.
final class StayLeaveTimeTests: SharedTampereDaemonTestCase {
    /// Issue 39: Koskikeskus "stay until 11:00, leave 11:00" while the ride from there starts
    /// with its walk to the stop at 11:02: the traveller leaves with the leg, at 11:02.
    func testANodeWithAStayLeavesWhenItsNextLegLeavesWhenThatIsLater() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "--mode", "transit",
                                        "--at", "2022-01-12T10:40"])
        let id = try id(created)
        _ = try harness.json(["plan", "insert", id, "Koskikeskus", "--after", "1", "--mode", "transit"])
        let stayed = try harness.json(["plan", "stay", id, "2", "--until", "11:00"])
        let node = nodes(stayed)[1], leg = try XCTUnwrap(segments(stayed)[1]["leg"], "\(stayed)")
        XCTAssertEqual(segments(stayed)[1]["mode"], .string("transit"), "\(stayed)")
        let until = try XCTUnwrap(date(node["stay_until"]), "\(node)")
        let leaves = try XCTUnwrap(date(leg["departure"]), "\(leg)")
        XCTAssertGreaterThan(leaves, until, "Tampere's timetable: the ride from Koskikeskus leaves after 11:00: \(leg)")
        XCTAssertEqual(date(node["departure"]), leaves, "the node is left when its leg leaves: \(node) \(leg)")
        let clock = try XCTUnwrap(leg["departure"]?.stringValue).dropFirst(11).prefix(5)
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertTrue(shown.stdout.contains("stay until 11:00, leave \(clock)"), shown.stdout)

    }
}
