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
        let (_, inserted) = try lielahtiBeforeThePinnedBus(harness)
        let segments = segments(inserted)
        let pinned = try XCTUnwrap((inserted["pinned_segments"]?.arrayValue ?? []).first?.numberValue.map { Int($0) - 1 }, "\(inserted)")
        let way = segments[pinned - 1]
        XCTAssertEqual(way["mode"], .string("transit"), "the way to the pinned ride's stop rides: \(way)")
        let wayTrips = Set((way["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue })
        let pinTrips = Set((segments[pinned]["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue })
        XCTAssertTrue(wayTrips.isDisjoint(with: pinTrips), "the way rides another vehicle than the pinned one: \(way)")
        let arrival = try XCTUnwrap(way["leg"]?["arrival"]?.stringValue, "\(way)")
        let arrives = try XCTUnwrap(WireTime.date(from: arrival), "\(way)")
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

    /// Trial 53: the walk to a pinned ride's stop set to transit by hand joins the pinned ride, the
    /// walk as its access walk (`RouteLeg.joiningAccessWalk`), and the pin read "pinned to leave
    /// 07:01" in an 08:00 plan: the walk's start, timed back from the bus. A pin is the vehicle's
    /// departure: it is shown leaving with its bus, on the wire and in umctl. (Keskustori's walk to
    /// the pinned bus 6 at 08:14, set to transit: the traveller can make that walk.)
    func testAPinJoinedWithTheWalkToItsStopIsShownLeavingWithItsVehicle() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "--mode", "transit", "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let ride = try XCTUnwrap(transitSegments(created).last, "\(created)")
        _ = try harness.json(["plan", "pin", plan, String(ride + 1), "08:14"])
        let joined = try harness.json(["plan", "mode", plan, String(ride), "transit"])  // the walk to the bus's stop
        let pinned = try XCTUnwrap((joined["pinned_segments"]?.arrayValue ?? []).first?.numberValue.map { Int($0) }, "\(joined)")
        XCTAssertEqual(pinned, ride, "the walk and the pinned ride are one ride: \(joined)")
        let leg = segments(joined)[pinned - 1]["leg"]
        XCTAssertEqual(leg?["walks"]?.arrayValue?.first?["kind"], .string("access"), "the walk joined to the ride: \(joined)")
        let walkStart = try XCTUnwrap(date(leg?["departure"]), "\(joined)")
        let bus = try XCTUnwrap(leg?["rides"]?.arrayValue?.first, "\(joined)")
        let boards = try XCTUnwrap(bus["departure"]?.stringValue, "\(bus)")
        XCTAssertLessThan(walkStart, try XCTUnwrap(WireTime.date(from: boards)), "the access walk starts before the bus: \(leg ?? .null)")
        let pin = try XCTUnwrap((joined["pins"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(pinned)) }, "\(joined)")
        XCTAssertEqual(pin["departure"]?.stringValue, boards, "the pin leaves with its bus, not the walk: \(joined)")
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertTrue(shown.contains("seg \(pinned) pinned to leave \(boards.dropFirst(11).prefix(5))"), shown)
    }

    /// Trial 54: the 1 h 13 min walk from Lielahti A to the pinned bus 6 at 08:14 (set to walk by
    /// hand), then set to transit, joined the pinned ride as its access walk: a "transit" segment
    /// walking 6.2 km ("transit ride missed, 14.5 km", leaving 07:01 where the traveller reaches
    /// Lielahti at 08:18), whose proposal was asked from Lielahti ("bus 9 at 08:25 instead of the
    /// missed bus 6 at 08:14"). A walk set to transit beside a pin it would make the traveller miss
    /// is ridden to the pinned ride's stop, on its own segment; the pin is missed as the traveller
    /// rides there, and its proposal is the first ride caught from that stop (bus 6 at 08:43).
    func testTheWayToAPinnedRideSetToTransitIsRiddenToItsStopWhenTheJoinedWalkWouldMissThePin() throws {
        let harness = try harness
        let (plan, _) = try lielahtiBeforeThePinnedBus(harness)
        let walked = try harness.json(["plan", "mode", plan, "2", "walk"])
        let walk = try XCTUnwrap(segments(walked)[1]["leg"]?["distance_m"]?.numberValue, "\(walked)")
        let changed = try harness.json(["plan", "mode", plan, "2", "transit"])
        let pinned = try XCTUnwrap((changed["pinned_segments"]?.arrayValue ?? []).first?.numberValue.map { Int($0) - 1 }, "\(changed)")
        XCTAssertEqual(pinned, 2, "the pinned ride stays on its own segment: \(changed)")
        let way = segments(changed)[1]
        XCTAssertEqual(way["mode"], .string("transit"), "\(way)")
        XCTAssertEqual(nodes(changed)[2]["inferred"], .bool(true), "the way ends at the pinned ride's stop: \(changed)")
        let rides = way["leg"]?["rides"]?.arrayValue ?? []
        XCTAssertFalse(rides.isEmpty, "the segment set to transit rides: \(way)")
        let walks = (way["leg"]?["walks"]?.arrayValue ?? []).compactMap { $0["distance_m"]?.numberValue }.reduce(0, +)
        XCTAssertLessThan(walks, walk / 4, "no walk of the \(Int(walk)) m hidden inside the ride: \(way)")
        let wayTrips = Set(rides.compactMap { $0["trip_id"]?.stringValue })
        let pinTrips = Set((segments(changed)[pinned]["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue })
        XCTAssertTrue(wayTrips.isDisjoint(with: pinTrips), "not the pinned vehicle: \(way)")
        // Missed, as the traveller rides there: proposed the first ride caught from the stop.
        XCTAssertEqual(segments(changed)[pinned]["missed_connection"], .bool(true), "\(segments(changed)[pinned])")
        let arrival = try XCTUnwrap(way["leg"]?["arrival"]?.stringValue, "\(way)")
        let arrives = try XCTUnwrap(WireTime.date(from: arrival), "\(way)")
        let proposal = try XCTUnwrap((changed["pending"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(pinned + 1)) }?["latest"],
                                     "a proposal for the missed pin: \(changed["pending"] ?? .null)")
        let proposalLeaves = try XCTUnwrap(date(proposal["departure"]), "\(proposal)")
        XCTAssertGreaterThanOrEqual(proposalLeaves, arrives.addingTimeInterval(-1), "caught riding there: \(proposal)")
        // The earliest-arriving ride from the stop from then: what the engine answers leaving there at that time.
        let stop = try XCTUnwrap(nodes(changed)[2]["name"]?.stringValue)
        let asked = try harness.json(["compare", stop, "Hervanta", "--at", arrival])
        let best = try XCTUnwrap(asked["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }, "\(asked)")
        XCTAssertEqual(proposal["arrival"]?.stringValue?.prefix(16), best["arrival"]?.stringValue?.prefix(16),
                       "the proposal arrives when the best catchable ride does: \(proposal) / \(best)")
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        let ride = try XCTUnwrap(proposal["rides"]?.arrayValue?.first, "\(proposal)")
        let named = "\(ride["vehicle"]?.stringValue ?? "?") \(ride["line"]?.stringValue ?? "?") at "
            + "\(ride["departure"]?.stringValue?.dropFirst(11).prefix(5) ?? "?") instead of the missed"
        XCTAssertTrue(shown.contains(named), "\(named): \(shown)")
    }

    /// `plan new Keskustori Hervanta --mode transit --at 08:00`, the bus pinned at 08:14, then
    /// `plan insert ID Lielahti --after 1`: the plan's id and the insert's answer.
    private func lielahtiBeforeThePinnedBus(_ harness: DaemonHarness) throws -> (id: String, inserted: JSONValue) {
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "--mode", "transit", "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let ride = try XCTUnwrap(transitSegments(created).last, "\(created)")
        _ = try harness.json(["plan", "pin", plan, String(ride + 1), "08:14"])
        return (plan, try harness.json(["plan", "insert", plan, "Lielahti", "--after", "1"]))
    }
}
