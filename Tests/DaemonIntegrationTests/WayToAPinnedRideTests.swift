import Foundation
import WireProtocol
import XCTest

/// Issue 39 (session 53 trial): the way from an inserted place to a pinned ride's stop is walked
/// so that it never rides the pinned vehicle itself, but it was walked however far: the walk rule
/// (docs/planner.md "One rule") rides it when walking is slower, on another vehicle.
final class WayToAPinnedRideTests: SharedTampereDaemonTestCase {
    /// `plan new Keskustori Hervanta --mode transit --at 08:00`, the bus pinned at 08:14, then
    /// `plan insert ID Lielahti --after 1`. The way from Lielahti A to the pinned bus's stop was
    /// walked (1 h 13 min, 6.2 km), the pin missed at 09:31 and bus 6 at 09:40 proposed, where
    /// line 19 gets there at 08:35 for bus 6 at 08:43. It is ridden, on a vehicle the pin does not
    /// board, and the missed pin's proposal is the next ride caught riding there.
    func testTheWayToAPinnedRideIsRiddenWhenWalkingIsSlower() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "--mode", "transit", "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let ride = try XCTUnwrap(transitSegments(created).last, "\(created)")
        _ = try harness.json(["plan", "pin", plan, String(ride + 1), "08:14"])
        let inserted = try harness.json(["plan", "insert", plan, "Lielahti", "--after", "1"])
        let segments = segments(inserted)
        let pinned = try XCTUnwrap((inserted["pinned_segments"]?.arrayValue ?? []).first?.numberValue.map { Int($0) - 1 }, "\(inserted)")
        let way = segments[pinned - 1]
        XCTAssertEqual(way["mode"], .string("transit"), "the way to the pinned ride's stop rides: \(way)")
        let wayTrips = Set((way["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue })
        let pinTrips = Set((segments[pinned]["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue })
        XCTAssertTrue(wayTrips.isDisjoint(with: pinTrips), "the way rides another vehicle than the pinned one: \(way)")
        let arrives = try XCTUnwrap(date(way["leg"]?["arrival"]), "\(way)")
        let latest = try XCTUnwrap(ISO8601DateFormatter().date(from: "2022-01-12T09:00:00+02:00"))
        XCTAssertLessThan(arrives, latest, "riding, the traveller is at the pinned ride's stop before 09:00: \(way)")
        // Missed (08:14 from Lielahti cannot be made): proposed the next bus caught riding there.
        XCTAssertEqual(segments[pinned]["missed_connection"], .bool(true), "\(segments[pinned])")
        let proposal = try XCTUnwrap((inserted["pending"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(pinned + 1)) }?["latest"],
                                     "a proposal for the missed pin: \(inserted["pending"] ?? .null)")
        let proposalLeaves = try XCTUnwrap(date(proposal["departure"]), "\(proposal)")
        XCTAssertGreaterThanOrEqual(proposalLeaves, arrives.addingTimeInterval(-1), "the proposal is caught riding there: \(proposal)")
        XCTAssertLessThan(proposalLeaves, latest, "the proposal is not the bus the walk would catch: \(proposal)")
    }
}
