import Foundation
import Transit
import WireProtocol
import XCTest

/// Trial 59 F1 and F2, through the real daemon with a GTFS-Realtime feed served over HTTP on
/// 127.0.0.1: the proposal for a pin that gave way in a plan of several places follows the
/// plan's own time. An arrive-by plan's cancelled (or change-broken) pin got the next ride after
/// it, arriving after the deadline (bus 9 arriving 10:02 for 09:58, where bus 19 arrives 09:54);
/// a depart-at plan's cancelled chosen bus got the next one after it, asked from the rides before
/// it that the plan had timed back to it, not from the plan's start (09:16 where 09:02 was caught).
final class ProposalsInLongerPlansTests: LiveRegionTestCase {
    /// The last transit segment of `plan` (from 1) and its first ride.
    func lastRide(of plan: JSONValue) throws -> (segment: Int, ride: JSONValue) {
        let segments = try XCTUnwrap(plan["segments"]?.arrayValue, "\(plan)")
        let index = try XCTUnwrap(segments.lastIndex { $0["leg"]?["rides"]?.arrayValue?.isEmpty == false }, "a ride: \(plan)")
        return (index + 1, try XCTUnwrap(segments[index]["leg"]?["rides"]?.arrayValue?.first))
    }

    /// Trial 59 F4: the nodes after a cancelled pin showed its arrival, and the plan its total, as
    /// if it ran. The plan's end (the pinned segment is the last) shows when the proposal gets
    /// there, and the total spans the times shown.
    func assertThePlanFollowsTheProposal(_ id: String, _ proposed: JSONValue, file: StaticString = #filePath, line: UInt = #line) throws {
        let shown = try harness.json(["plan", "show", id])
        let nodes = try XCTUnwrap(shown["nodes"]?.arrayValue, "\(shown)", file: file, line: line)
        let end = try XCTUnwrap(date(nodes.last?["time"]), "the end has a time: \(shown)", file: file, line: line)
        XCTAssertEqual(end, try XCTUnwrap(date(proposed["arrival"])), "the end is reached when the proposal gets there: \(shown)",
                       file: file, line: line)
        let start = try XCTUnwrap(date(nodes.first?["departure"]) ?? date(nodes.first?["time"]), "\(shown)", file: file, line: line)
        XCTAssertEqual(shown["total_duration_s"]?.numberValue, end.timeIntervalSince(start), "the total spans the times shown: \(shown)",
                       file: file, line: line)
    }

    /// Serves `updates` and waits for the proposal on `segment` of plan `id`.
    func proposal(_ id: String, segment: Int, after updates: [RealtimeTripUpdate]) throws -> JSONValue {
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: updates))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        let pending = try live.eventually("the pin that gave way gets a proposal") {
            try harness.json(["plan", "show", id])["pending"]?.arrayValue?.first { $0["segment"] == .number(Double(segment)) }?["latest"]
        }
        return pending
    }

    func testAnArriveByPlansCancelledPinProposesARideArrivingByTheDeadline() throws {
        let deadline = "2022-01-12T09:58"
        let created = try harness.json(["plan", "new", "Hervanta", "Keskustori", "Lielahti A", "--mode", "transit",
                                        "--arrive-by", deadline])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let (segment, ride) = try lastRide(of: created)
        let minute = String(try XCTUnwrap(ride["departure"]?.stringValue).dropFirst(11).prefix(5))
        _ = try harness.json(["plan", "pin", id, String(segment), minute])
        let proposed = try proposal(id, segment: segment, after: [try live.tripUpdate(ride, cancelled: true)])
        let due = try XCTUnwrap(WireTime.date(from: deadline + ":00+02:00"))
        XCTAssertLessThanOrEqual(try XCTUnwrap(date(proposed["arrival"]), "\(proposed)"), due,
                                 "the proposal arrives by the plan's deadline: \(proposed)")
        XCTAssertNotEqual(proposed["rides"]?.arrayValue?.first?["trip_id"], ride["trip_id"], "not the cancelled trip: \(proposed)")
        try assertThePlanFollowsTheProposal(id, proposed)
        // `compare` by the deadline from the segment's start finds a ride; so the plan's own list
        // of options arriving in time has the proposal's arrival among them.
        let listed = try harness.json(["plan", "alternatives", id, String(segment), "--count", "10"])
        let arrivals = (listed["options"]?.arrayValue ?? []).compactMap { date($0["arrival"]) }
        XCTAssertTrue(arrivals.allSatisfy { $0 <= due }, "alternatives of the pin arrive in time: \(listed)")
        XCTAssertTrue(arrivals.contains(try XCTUnwrap(date(proposed["arrival"]))), "the proposal is listed: \(listed)\n\(proposed)")
    }

    /// Trial 61 F6: arriving by 09:00 from Keskustori to TAYS A with bus 6 pinned (08:38 from the
    /// stop inferred for it), the cancelled bus was proposed bus 28 at 08:43:45 from Rautatieasema F,
    /// an 8-minute walk away, leaving Keskustori at 08:35, where `plan new` leaves at 08:42: asked
    /// from the inferred stop, the latest departure from there is not the latest from the place.
    /// The proposal is asked from the traveller's place: it leaves no earlier than a new plan.
    func testAnArriveByPlansCancelledPinIsProposedAsTheLatestDepartureFromTheTravellersPlace() throws {
        let deadline = "2022-01-12T09:00"
        let created = try harness.json(["plan", "new", "Keskustori", "TAYS A", "--mode", "transit", "--arrive-by", deadline])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let (segment, _) = try lastRide(of: created)
        let pinned = try harness.json(["plan", "pin", id, String(segment), "--line", "6"])
        let ride = try lastRide(of: pinned).ride
        XCTAssertEqual(ride["line"], .string("6"), "\(pinned)")
        let proposed = try proposal(id, segment: segment, after: [try live.tripUpdate(ride, cancelled: true)])
        let fresh = try harness.json(["plan", "new", "Keskustori", "TAYS A", "--mode", "transit", "--arrive-by", deadline])
        let freshLeaves = try XCTUnwrap(date(fresh["nodes"]?.arrayValue?.first?["departure"] ?? fresh["nodes"]?.arrayValue?.first?["time"]),
                                       "\(fresh)")
        let shown = try harness.json(["plan", "show", id])
        let leaves = try XCTUnwrap(date(shown["nodes"]?.arrayValue?.first?["departure"] ?? shown["nodes"]?.arrayValue?.first?["time"]),
                                  "\(shown)")
        XCTAssertGreaterThanOrEqual(leaves, freshLeaves.addingTimeInterval(-60),
                                    "following the proposal leaves Keskustori no earlier than a new plan does: \(proposed)\n\(fresh)")
        let due = try XCTUnwrap(WireTime.date(from: deadline + ":00+02:00"))
        XCTAssertLessThanOrEqual(try XCTUnwrap(date(proposed["arrival"]), "\(proposed)"), due, "\(proposed)")
    }

    func testADepartAtPlansCancelledChoiceIsProposedFromThePlansStart() throws {
        let start = "2022-01-12T08:20"
        let created = try harness.json(["plan", "new", "Pyynikintori", "Keskustori", "Hervanta", "--mode", "transit",
                                        "--at", start])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let (segment, _) = try lastRide(of: created)
        // Choosing a later bus times the rides before it back to it.
        let listed = try harness.json(["plan", "alternatives", id, String(segment)])
        let later = try XCTUnwrap(listed["options"]?.arrayValue?.dropFirst().first, "a second option: \(listed)")
        let chosenTrip = try XCTUnwrap(later["rides"]?.arrayValue?.first?["trip_id"]?.stringValue, "\(later)")
        let chosen = try harness.umctl(["plan", "choose", id, String(segment), "2", "--departure",
                                        try XCTUnwrap(later["departure"]?.stringValue), "--trip", chosenTrip])
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        let plan = try harness.json(["plan", "show", id])
        let ride = try lastRide(of: plan).ride
        XCTAssertEqual(ride["trip_id"], .string(chosenTrip), "the chosen bus: \(plan)")
        let proposed = try proposal(id, segment: segment, after: [try live.tripUpdate(ride, cancelled: true)])
        XCTAssertLessThan(try XCTUnwrap(date(proposed["departure"]), "\(proposed)"), try XCTUnwrap(date(ride["departure"])),
                          "Tampere's timetable: from the plan's start a ride before the cancelled one is caught: \(proposed)")
        try assertThePlanFollowsTheProposal(id, proposed)
        // As `plan alternatives` lists it, from when the traveller can be there going from the start:
        // from the place they walk to the ride's inferred stop from (session 60, F3), so an option
        // boarding another stop, nearer that place, may leave the inferred stop (as shown) up to
        // that walk earlier; one boarding there leaves once they are there.
        let options = try harness.json(["plan", "alternatives", id, String(segment), "--count", "10"])
        let ready = try XCTUnwrap(date(options["time"]), "\(options)")
        let walkBefore = plan["segments"]?.arrayValue?[segment - 2]
        let inferred = plan["nodes"]?.arrayValue?[segment - 1]["inferred"] == .bool(true)
        let walk = inferred && walkBefore?["mode"] == .string("walk") ? walkBefore?["leg"]?["duration_s"]?.numberValue ?? 0 : 0
        func boardsElsewhere(_ option: JSONValue) -> Bool {
            (option["walks"]?.arrayValue ?? []).contains { $0["kind"] == .string("access") && ($0["distance_m"]?.numberValue ?? 0) > 0 }
        }
        let best = (options["options"]?.arrayValue ?? []).filter { option in
            !(option["rides"]?.arrayValue ?? []).contains { $0["cancelled"] == .bool(true) }
                && (date(option["departure"]) ?? .distantPast) >= ready.addingTimeInterval(boardsElsewhere(option) ? -walk : 0)
        }.compactMap { date($0["arrival"]) }.min()
        XCTAssertEqual(date(proposed["arrival"]), best, "the best catchable option listed: \(proposed)\n\(options)")
    }

    func testAnArriveByPlansChangeBrokenByADelayProposesARideArrivingByTheDeadline() throws {
        let deadline = "2022-01-12T09:40"
        let created = try harness.json(["plan", "new", "Lielahti A", "Tampere-talo", "Hervanta", "--mode", "transit",
                                        "--arrive-by", deadline])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let (segment, _) = try lastRide(of: created)
        let rides = try XCTUnwrap(created["segments"]?.arrayValue?[segment - 1]["leg"]?["rides"]?.arrayValue, "\(created)")
        try XCTSkipUnless(rides.count == 2, "Tampere's timetable: the last hop changes once: \(created)")
        let minute = String(try XCTUnwrap(rides[0]["departure"]?.stringValue).dropFirst(11).prefix(5))
        _ = try harness.json(["plan", "pin", id, String(segment), minute])
        // The first ride late by the change's margin and three minutes more: the change breaks.
        let margin = try XCTUnwrap(date(rides[1]["departure"])).timeIntervalSince(try XCTUnwrap(date(rides[0]["arrival"])))
        let proposed = try proposal(id, segment: segment, after: [try live.tripUpdate(rides[0], delay: Int(margin) + 180)])
        let due = try XCTUnwrap(WireTime.date(from: deadline + ":00+02:00"))
        XCTAssertLessThanOrEqual(try XCTUnwrap(date(proposed["arrival"]), "\(proposed)"), due,
                                 "the proposal arrives by the plan's deadline: \(proposed)")
    }
}
