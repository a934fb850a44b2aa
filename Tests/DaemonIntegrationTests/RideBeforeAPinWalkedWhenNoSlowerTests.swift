import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 3, "in day plans a hop where walking is no slower is walked (the segment says
/// why)", before a pin (trial 59b F8). `plan new "Kaleva A" "Rautatieasema A" "Lielahti A" --at
/// 08:53 --mode transit`, `plan pin ID 2 09:24` (bus 12 at 09:31, its walk leaving Rautatieasema A
/// at 09:29): segment 1 rode bus 19 from 09:12, there at 09:26, and said "walking the whole way is
/// no slower than this journey", while the 17-min walk from 09:12 makes the pin too. Timed back
/// to the pinned segment after it, a ride is judged to the latest the traveller may be at its
/// end, as in an arrive-by plan (`JudgedTimes.span`, `latestArrivalsForPins`): its wait there counts.
final class RideBeforeAPinWalkedWhenNoSlowerTests: SharedTampereDaemonTestCase {
    func testARideBeforeAPinIsWalkedWhenTheWalkMakesThePinToo() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Kaleva A", "Rautatieasema A", "Lielahti A", "--at", "2022-01-12T08:53",
                                        "--mode", "transit"])
        let plan = try id(created)
        guard nodes(created).count == 3 else { return XCTFail("Kaleva A → Rautatieasema A → Lielahti A: \(created)") }
        let pinned = try harness.json(["plan", "pin", plan, "2", "09:24"])
        let bus = try XCTUnwrap(segments(pinned)[1]["leg"]?["rides"]?.arrayValue?.first, "the pinned ride: \(pinned)")
        XCTAssertEqual(bus["line"], .string("12"), "\(pinned)")
        let first = segments(pinned)[0]
        XCTAssertEqual(first["mode"], .string("walk"), "walked, no slower for the pin: \(first)")
        let note = try XCTUnwrap(first["mode_note"]?.stringValue, "the segment says why: \(first)")
        XCTAssertTrue(note.hasPrefix("walked: walking"), note)
        XCTAssertTrue(note.contains("is no slower than transit"), note)
        // The walk makes the pin: at Rautatieasema A by the time the walk to bus 12 leaves.
        let there = try XCTUnwrap(date(nodes(pinned)[1]["time"]), "\(pinned)")
        let leaves = try XCTUnwrap(date(segments(pinned)[1]["leg"]?["departure"]), "\(pinned)")
        XCTAssertLessThanOrEqual(there, leaves.addingTimeInterval(1), "\(pinned)")
        XCTAssertEqual(pinned["pending"]?.arrayValue ?? [], [], "\(pinned)")
        XCTAssertNotEqual(segments(pinned)[1]["missed_connection"], .bool(true), "\(pinned)")
    }
}
