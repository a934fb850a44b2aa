import Foundation
import Transit
import WireProtocol
import XCTest

/// Trial 58 F2, through the real daemon with a GTFS-Realtime feed served over HTTP on 127.0.0.1:
/// the proposal for a pinned ride that can no longer be taken (cancelled, or skipping the stop it
/// boards at) is the best ride the traveller can still catch from when and where they can be,
/// not the next one after the pinned time at the pinned stop. A cancelled bus 6 at 08:02 got the
/// 08:12 (arriving 08:41) while the bus at 07:52:45 (arriving 08:21) was catchable from the start;
/// a tram skipping only Keskustori B got the next tram, while the same tram still stopped at
/// Koskipuisto B a minute later. `compare` from the plan's start to where the ride gets off
/// (which asks the same engine from the same place and time) says what can be caught.
final class ProposalIsTheBestCatchableTests: LiveRegionTestCase {

    /// The best transit arrival `compare` finds from the plan's start to the end of `segment` (from 1).
    func bestArrival(of plan: JSONValue, to segment: Int, at start: String) throws -> Date {
        let end = try XCTUnwrap(plan["nodes"]?.arrayValue?[segment], "\(plan)")
        let place = "\(try XCTUnwrap(end["lat"]?.numberValue)),\(try XCTUnwrap(end["lon"]?.numberValue))"
        let compared = try harness.json(["compare", Tampere.keskustori, place, "--at", start])
        let transit = compared["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }
        return try XCTUnwrap(date(transit?["arrival"]), "a transit option: \(compared)")
    }

    /// The plan of `PendingUpdateTests` (Keskustori → Hervanta from 08:00, its ride pinned at
    /// 08:15, a quarter of an hour after the traveller can be at the stop), the pinned ride's
    /// trip changed by `update`; the proposal once it comes.
    func proposal(after update: (JSONValue) throws -> RealtimeTripUpdate) throws
        -> (plan: JSONValue, segment: Int, pinned: JSONValue, proposed: JSONValue) {
        let pinned = try live.pinnedPlan()
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try update(pinned.ride)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        let pending = try live.eventually("the pinned ride gets a proposal") {
            try harness.json(["plan", "show", pinned.id])["pending"]?.arrayValue?.first
        }
        let proposed = try XCTUnwrap(pending["latest"], "a ride is proposed: \(pending)")
        return (try harness.json(["plan", "show", pinned.id]), pinned.segment, pinned.ride, proposed)
    }

    func testACancelledPinnedRideProposesTheEarliestArrivalCatchableFromThePlansStart() throws {
        let answer = try proposal { try live.tripUpdate($0, cancelled: true) }
        let best = try bestArrival(of: answer.plan, to: answer.segment, at: Tampere.morning)
        let arrival = try XCTUnwrap(date(answer.proposed["arrival"]), "\(answer.proposed)")
        XCTAssertLessThanOrEqual(arrival, best.addingTimeInterval(1),
                                 "the proposal arrives as early as what can be caught from the start: \(answer.proposed)")
        XCTAssertLessThan(try XCTUnwrap(date(answer.proposed["departure"])), try XCTUnwrap(date(answer.pinned["departure"])),
                          "Tampere's timetable: a ride before the cancelled one is caught from the start: \(answer.proposed)")
        let start = try XCTUnwrap(WireTime.date(from: Tampere.morning + ":00+02:00"))
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(date(answer.proposed["departure"])), start, "never before the traveller leaves")
        // `plan alternatives` lists from when the traveller can be there too, the proposal first among equals.
        let id = String(Int64(try XCTUnwrap(answer.plan["id"]?.numberValue)))
        let listed = try harness.json(["plan", "alternatives", id, String(answer.segment), "--count", "10"])
        let arrivals = (listed["options"]?.arrayValue ?? []).filter { option in
            !(option["rides"]?.arrayValue ?? []).contains { $0["cancelled"] == .bool(true) }
        }.compactMap { date($0["arrival"]) }
        XCTAssertEqual(arrivals.min(), arrival, "the best option listed is the proposal's arrival: \(listed)\n\(answer.proposed)")
    }

    func testAPinnedRideSkippingItsStopProposesTheSameTripsOtherStopWhenCatchable() throws {
        let answer = try proposal { ride in
            let skipped = try XCTUnwrap(ride["from_stop_id"]?.stringValue, "\(ride)")
            var update = try live.tripUpdate(ride)
            update.stopTimeUpdates = [RealtimeStopTimeUpdate(stopID: skipped, relationship: .skipped)]
            return update
        }
        let best = try bestArrival(of: answer.plan, to: answer.segment, at: Tampere.morning)
        let arrival = try XCTUnwrap(date(answer.proposed["arrival"]), "\(answer.proposed)")
        XCTAssertLessThanOrEqual(arrival, best.addingTimeInterval(1),
                                 "the proposal arrives as early as what can be caught from the start: \(answer.proposed)")
        XCTAssertLessThanOrEqual(arrival, try XCTUnwrap(date(answer.pinned["arrival"])).addingTimeInterval(1),
                                 "the skipped stop's trip, or an earlier ride, still gets there by then: \(answer.proposed)")
    }

    /// Plan 14 of the trial: a pinned bus gets the traveller to TAYS A, and the pinned bus after
    /// it, a quarter of an hour later, is cancelled. The proposal was asked from the cancelled
    /// bus's time (bus 6 at 08:40:30, arriving 09:16) while `plan alternatives` listed, with no
    /// conflict, bus 6 at 08:30:30 arriving 09:06: they agree now, from when the traveller is there.
    func testACancelledPinAfterAnotherPinProposesTheBestAlternativeListedFromWhenTheTravellerIsThere() throws {
        let (home, tays, hervanta) = ("61.4979472,23.7683013", "61.5039789221276,23.8121902942658", "61.45513,23.84846")
        let created = try harness.json(["plan", "new", home, tays, hervanta, "--mode", "transit", "--at", "2022-01-12T07:30"])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let segments = try XCTUnwrap(created["segments"]?.arrayValue)
        let rides = segments.indices.filter { segments[$0]["mode"] == .string("transit") && segments[$0]["leg"]?["rides"]?.arrayValue?.isEmpty == false }
        XCTAssertEqual(rides.count, 2, "a ride to TAYS A and one on: \(created)")
        let (first, second) = (try XCTUnwrap(rides.first), try XCTUnwrap(rides.last))
        let firstRide = try XCTUnwrap(segments[first]["leg"]?["rides"]?.arrayValue?.first)
        _ = try harness.json(["plan", "pin", id, String(first + 1), String(try XCTUnwrap(firstRide["departure"]?.stringValue).dropFirst(11).prefix(5))])
        let later = try XCTUnwrap(date(segments[second]["leg"]?["departure"]), "\(created)").addingTimeInterval(15 * 60)
        let minute = String(WireTime.string(from: later, timeZone: TimeZone(identifier: "Europe/Helsinki")!).dropFirst(11).prefix(5))
        let pinned = try harness.json(["plan", "pin", id, String(second + 1), minute])
        let cancelled = try XCTUnwrap(pinned["segments"]?.arrayValue?[second]["leg"]?["rides"]?.arrayValue?.first, "\(pinned)")
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(cancelled, cancelled: true)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        let pending = try live.eventually("the cancelled pin gets a proposal") {
            try harness.json(["plan", "show", id])["pending"]?.arrayValue?.first { $0["segment"] == .number(Double(second + 1)) }
        }
        let listed = try harness.json(["plan", "alternatives", id, String(second + 1), "--count", "10"])
        let ready = try XCTUnwrap(listed["time"]?.stringValue, "\(listed)")
        let conflicts = Set((listed["pin_conflicts"]?.arrayValue ?? []).compactMap { $0["option"]?.numberValue.map(Int.init) })
        let catchable = (listed["options"]?.arrayValue ?? []).enumerated().filter { number, option in
            !conflicts.contains(number + 1) && !(option["rides"]?.arrayValue ?? []).contains { $0["cancelled"] == .bool(true) }
                && (option["departure"]?.stringValue ?? "") >= ready
        }.map(\.element)
        let best = try XCTUnwrap(catchable.compactMap { $0["arrival"]?.stringValue }.min(), "\(listed)")
        XCTAssertEqual(pending["latest"]?["arrival"]?.stringValue, best, "the best catchable option listed: \(pending)\n\(listed)")
    }
}

/// Trial 58 F5: accepting a late pin's proposal kept a walk to a farther stop of the same trip
/// (434 m to Koskipuisto D for bus 9 at 08:57, where the same trip stops at Keskustori E, 149 m
/// away, at 08:56, left later for). The proposal boards where the rule of the trip's nearest
/// stops says, as any ride the planner asks does, so the plan accepted keeps that rule.
final class AcceptedProposalBoardsTheTripsNearestStopTests: LiveRegionTestCase {
    static let keskustori = "61.4983297,23.7608257", hervanta = "61.45513,23.84846", deadline = "2022-01-12T09:30"

    func testAcceptingALatePinsProposalWalksToTheStopOfItsTripLeftLatestFor() throws {
        let created = try harness.json(["plan", "new", Self.keskustori, Self.hervanta, "--mode", "transit", "--arrive-by", Self.deadline])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let segment = try XCTUnwrap(created["segments"]?.arrayValue?.firstIndex { $0["mode"] == .string("transit") }, "\(created)") + 1
        let ride = try XCTUnwrap(created["segments"]?.arrayValue?[segment - 1]["leg"]?["rides"]?.arrayValue?.first, "\(created)")
        let minute = String(try XCTUnwrap(ride["departure"]?.stringValue).dropFirst(11).prefix(5))
        _ = try harness.json(["plan", "pin", id, String(segment), minute])
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(ride, delay: 480)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        _ = try live.eventually("the late pin gets a proposal") {
            try harness.json(["plan", "show", id])["pending"]?.arrayValue?.first?["latest"]
        }
        let accepted = try harness.umctl(["plan", "accept", id, String(segment)])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        let plan = try harness.json(["plan", "show", id])
        let segments = try XCTUnwrap(plan["segments"]?.arrayValue)
        let rideSegment = try XCTUnwrap(segments.firstIndex { $0["mode"] == .string("transit") }, "\(plan)")
        let first = try XCTUnwrap(segments[rideSegment]["leg"]?["rides"]?.arrayValue?.first, "\(plan)")
        let leaves = try XCTUnwrap(date(plan["nodes"]?.arrayValue?.first?["departure"] ?? plan["nodes"]?.arrayValue?.first?["time"]), "\(plan)")

        let compared = try harness.json(["compare", Self.keskustori, Self.hervanta, "--arrive-by", Self.deadline])
        let transit = try XCTUnwrap(compared["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }, "\(compared)")
        let comparedFirst = try XCTUnwrap(transit["rides"]?.arrayValue?.first, "\(transit)")
        XCTAssertEqual(comparedFirst["trip_id"], first["trip_id"],
                       "Tampere's timetable: the best by the deadline rides the proposal's first trip: \(transit)\n\(plan)")
        XCTAssertEqual(first["from"], comparedFirst["from"], "boards where the search from the door boards that trip: \(plan)")
        XCTAssertGreaterThanOrEqual(leaves, try XCTUnwrap(date(transit["departure"])).addingTimeInterval(-60),
                                    "leaves the door as late as that trip allows: \(plan)\n\(transit)")
    }
}
