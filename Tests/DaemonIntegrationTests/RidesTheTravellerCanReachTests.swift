import Foundation
import WireProtocol
import XCTest

/// Issue 39 (trial 52 finding 2): the planner never keeps a ride the traveller cannot reach. A
/// transit leg's first walk is the street walk (`StreetTimedTransit`); when every search the
/// engine was allowed found a stop whose street walk was longer than it priced, the last answer
/// was kept with its bus already gone.
final class RidesTheTravellerCanReachTests: SharedTampereDaemonTestCase {
    /// `plan new Keskustori Nekalantie --mode transit --at 08:08`, then `plan move ID 3
    /// 61.4900,23.8000` (near Turjankatu, 08:25:37 after bus 6 and a walk). Segment 3 walked 436 m
    /// (314 s) back to Kuikankatu for bus 6 at 08:30:00, which the engine had priced at 201 s:
    /// "missed: ... the walk gets you there at 08:30:51, 51 s too late", node 4 `--:--`, "total:
    /// none". Asked from when the traveller is at node 3 with the street walk, the way on is one
    /// they can take: a ride they catch, or the walk when no ride they catch is faster.
    func testTheWayOnFromAMovedStopIsOneTheTravellerCanTake() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Nekalantie", "--mode", "transit", "--at", "2022-01-12T08:08"])
        let plan = try id(created)
        let moved = try harness.json(["plan", "move", plan, "3", "61.4900,23.8000"])
        let nodes = nodes(moved), segments = segments(moved)
        XCTAssertEqual(segments.count, 3, "\(moved)")
        let times = nodes.map { date($0["time"]) }
        XCTAssertFalse(times.contains(nil), "every node shows a time: \(nodes)")
        for index in segments.indices {
            XCTAssertNotEqual(segments[index]["missed_connection"], .bool(true), "segment \(index + 1): \(segments[index])")
            let leg = try XCTUnwrap(segments[index]["leg"], "segment \(index + 1) has a leg: \(segments[index])")
            if let leaves = date(leg["departure"]), let there = times[index] {
                XCTAssertGreaterThanOrEqual(leaves, there.addingTimeInterval(-1), "segment \(index + 1) leaves after its node: \(moved)")
            }
            // A ride's first walk gets to its stop before it leaves.
            if let ride = leg["rides"]?.arrayValue?.first, let there = times[index],
               let walk = leg["walks"]?.arrayValue?.first(where: { $0["kind"] == .string("access") }),
               let seconds = walk["duration_s"]?.numberValue, let boards = date(ride["departure"]) {
                XCTAssertLessThanOrEqual(there.addingTimeInterval(seconds), boards.addingTimeInterval(1), "segment \(index + 1): \(leg)")
            }
        }
        let text = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertFalse(text.contains("missed"), "nothing missed: \(text)")
        XCTAssertFalse(text.contains("total: none"), "the plan has a total: \(text)")
    }
}
