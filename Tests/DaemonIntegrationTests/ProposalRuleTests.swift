import Foundation
import Transit
import WireProtocol
import XCTest

/// Issue 39 item 2, the proposal rule through the real daemon with a GTFS-Realtime feed served
/// over HTTP on 127.0.0.1: when a pinned ride is cancelled or missed, the proposal is the
/// earliest-arriving option the traveller can still catch (not cancelled, leaving once they can
/// be at the stop), the best of `plan alternatives`, and `plan show` names it by line and time.
final class ProposalRuleTests: LiveRegionTestCase {
    /// "08:15" of "2022-01-12T08:15:00+02:00".
    func clock(_ iso: String?) -> String { iso.map { String($0.dropFirst(11).prefix(5)) } ?? "?" }

    func rides(_ leg: JSONValue?) -> [JSONValue] { leg?["rides"]?.arrayValue ?? [] }

    /// The earliest arrival among the listed options of `segment` that ride nothing cancelled and
    /// leave at `ready` or later.
    func bestCatchable(_ id: String, segment: Int, ready: String) throws -> String {
        let listed = try harness.json(["plan", "alternatives", id, String(segment), "--count", "10"])
        let catchable = (listed["options"]?.arrayValue ?? []).filter { option in
            !rides(option).contains { $0["cancelled"] == .bool(true) } && (option["departure"]?.stringValue ?? "") >= ready
        }
        return try XCTUnwrap(catchable.compactMap { $0["arrival"]?.stringValue }.min(), "a catchable option: \(listed)")
    }

    func pending(_ id: String) throws -> JSONValue? {
        try harness.json(["plan", "show", id])["pending"]?.arrayValue?.first
    }

    func testTheProposalForACancelledPinnedRideIsTheBestCatchableAlternativeNamedByLineAndTime() throws {
        let pinned = try live.pinnedPlan()
        let pinnedLeg = try XCTUnwrap(pinned.plan["segments"]?.arrayValue?[pinned.segment - 1]["leg"])
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, cancelled: true)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        let proposal = try live.eventually("the cancelled ride gets a proposal") { try pending(pinned.id) }

        // Asked from when the traveller can be at the stop (trial 58 F2), which is before the
        // pinned time: no later than the best option listed from the pinned time on
        // (`ProposalIsTheBestCatchableTests` compares it with what can be caught from the start).
        let ready = try XCTUnwrap(pinnedLeg["departure"]?.stringValue)
        XCTAssertLessThanOrEqual(try XCTUnwrap(proposal["latest"]?["arrival"]?.stringValue),
                                 try bestCatchable(pinned.id, segment: pinned.segment, ready: ready),
                                 "no later than the earliest arrival listed from the pinned time: \(proposal)")
        XCTAssertFalse(rides(proposal["latest"]).contains { $0["cancelled"] == .bool(true) }, "\(proposal)")

        let shown = try harness.umctl(["plan", "show", pinned.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let ride = try XCTUnwrap(rides(proposal["latest"]).first)
        let named = "\(ride["vehicle"]?.stringValue ?? "?") \(ride["line"]?.stringValue ?? "?") at \(clock(ride["departure"]?.stringValue))"
        XCTAssertTrue(shown.stdout.contains("\(named) instead of the cancelled "), "names line and time: \(shown.stdout)")
        XCTAssertTrue(shown.stdout.contains("cancelled \(clock(pinned.ride["departure"]?.stringValue))")
                      || shown.stdout.contains("cancelled \(pinned.ride["vehicle"]?.stringValue ?? "?") \(pinned.ride["line"]?.stringValue ?? "?") at \(clock(pinned.ride["departure"]?.stringValue))"),
                      shown.stdout)
    }

    func testTheProposalForAMissedPinIsTheBestAlternativeFromWhenTheTravellerGetsToTheStop() throws {
        let pinned = try live.pinnedPlan()
        // Leaving a minute after the pinned ride arrives, it can't be caught at any of its stops
        // (a start just after its departure could still board it farther down the line).
        let arrival = clock(pinned.ride["arrival"]?.stringValue)
        let minutes = try XCTUnwrap(Int(arrival.prefix(2))) * 60 + XCTUnwrap(Int(arrival.suffix(2))) + 1
        let late = String(format: "%02d:%02d", minutes / 60, minutes % 60)
        let retimed = try harness.json(["plan", "time", pinned.id, "--at", late])
        let segment = try XCTUnwrap(retimed["segments"]?.arrayValue?[pinned.segment - 1])
        XCTAssertEqual(segment["missed_connection"], .bool(true), "\(retimed)")
        let proposal = try XCTUnwrap(retimed["pending"]?.arrayValue?.first, "a missed pin gets a proposal: \(retimed)")
        let start = try XCTUnwrap(retimed["nodes"]?.arrayValue?[pinned.segment - 1])
        let ready = try XCTUnwrap(start["departure"]?.stringValue ?? start["time"]?.stringValue, "\(start)")
        XCTAssertEqual(proposal["latest"]?["arrival"]?.stringValue, try bestCatchable(pinned.id, segment: pinned.segment, ready: ready),
                       "the earliest arrival from when the traveller is at the stop (\(ready)): \(proposal)")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(proposal["latest"]?["departure"]?.stringValue), ready)
        let shown = try harness.umctl(["plan", "show", pinned.id])
        let ride = try XCTUnwrap(rides(proposal["latest"]).first)
        XCTAssertTrue(shown.stdout.contains("\(ride["vehicle"]?.stringValue ?? "?") \(ride["line"]?.stringValue ?? "?") at "
                                            + "\(clock(ride["departure"]?.stringValue)) instead of the missed "), shown.stdout)
    }

    /// Issue 39: accepting a proposal that rides another line than the user's line choice
    /// ("chose 10, 36") dropped the choice silently. The choice is kept, and the answer and
    /// `plan show` say it was replaced ("line choice 6 replaced by bus 9, bus 6"). (From 08:00 the
    /// next ride after line 10's is line 10's again now: the change to bus 36 arrives first.)
    func testAcceptingAProposalOnAnotherLineSaysTheLineChoiceWasReplaced() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", "2022-01-12T08:30"])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let segment = try XCTUnwrap(created["segments"]?.arrayValue?.firstIndex { $0["mode"] == .string("transit") }, "\(created)") + 1
        let pinned = try harness.json(["plan", "pin", id, String(segment), "--line", "6"])
        let chosenSegment = try XCTUnwrap(pinned["segments"]?.arrayValue?[segment - 1])
        let chosen = chosenSegment["chosen_lines"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertEqual(chosen.first, "6", "the line choice: \(chosenSegment)")
        // Leaving a minute after the chosen ride arrives: missed, and the next one is another line.
        let arrival = clock(chosenSegment["leg"]?["arrival"]?.stringValue)
        let minutes = try XCTUnwrap(Int(arrival.prefix(2))) * 60 + XCTUnwrap(Int(arrival.suffix(2))) + 1
        let retimed = try harness.json(["plan", "time", id, "--at", String(format: "%02d:%02d", minutes / 60, minutes % 60)])
        let proposal = try XCTUnwrap(retimed["pending"]?.arrayValue?.first, "a missed pin gets a proposal: \(retimed)")
        let proposed = rides(proposal["latest"])
        XCTAssertNotEqual(proposed.compactMap { $0["line"]?.stringValue }, chosen,
                          "Tampere's timetable: the next ride after line 10's rides another line: \(proposal)")
        let first = try XCTUnwrap(proposed.first)
        let waiting = try harness.umctl(["plan", "show", id])
        XCTAssertTrue(waiting.stdout.contains("\(first["vehicle"]?.stringValue ?? "?") \(first["line"]?.stringValue ?? "?") at "
                                              + "\(clock(first["departure"]?.stringValue)) instead of the missed bus 6 at "),
                      "the pending line names its line and departure, and the user's: \(waiting.stdout)")

        let replaced = "line choice \(chosen.joined(separator: ", ")) replaced by "
            + proposed.map { "\($0["vehicle"]?.stringValue ?? "?") \($0["line"]?.stringValue ?? "?")" }.joined(separator: ", ")
        let accepted = try harness.umctl(["plan", "accept", id, String(segment)])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertTrue(accepted.stdout.contains(replaced), "the answer says so (\(replaced)): \(accepted.stdout)")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertTrue(shown.stdout.contains(replaced), "plan show says so (\(replaced)): \(shown.stdout)")
        let plan = try harness.json(["plan", "show", id])
        let after = try XCTUnwrap(plan["segments"]?.arrayValue?[segment - 1])
        XCTAssertEqual(after["chosen_lines"]?.arrayValue?.compactMap(\.stringValue), chosen, "the choice is kept, not dropped: \(after)")
        XCTAssertEqual(after["line_choice_replaced"], .bool(true), "\(after)")
    }

    /// Issue 39: after `plan insert` put a place before a pinned ride, no proposal came at all.
    /// The inserted hop is a ride asked to arrive by the pin; with the pin on the first buses of
    /// the day none arrives that early, and the legs before the pin were left empty: nothing was
    /// missed, nothing proposed. The rides before the pin are then asked from the start, the pin
    /// is missed, and the next ride the traveller can catch is proposed.
    func testAPinAnInsertedRideCannotReachInTimeGetsTheNextCatchableRideProposed() throws {
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "transit",
                                        "--at", "2022-01-12T06:00"])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let ride = try XCTUnwrap(created["segments"]?.arrayValue?.firstIndex { $0["mode"] == .string("transit") }, "\(created)") + 1
        XCTAssertGreaterThan(ride, 1, "a walk to the first stop: \(created)")
        let pinned = try harness.json(["plan", "pin", id, String(ride), "06:00"])
        let pinnedLeg = try XCTUnwrap(pinned["segments"]?.arrayValue?[ride - 1]["leg"], "\(pinned)")
        let inserted = try harness.umctl(["plan", "insert", id, Tampere.tampereTalo, "--after", String(ride - 1), "--mode", "transit"])
        XCTAssertNotEqual(inserted.status, 2, inserted.stderr)
        let plan = try harness.json(["plan", "show", id])
        let segments = try XCTUnwrap(plan["segments"]?.arrayValue)
        XCTAssertEqual(plan["pinned_segment"], .number(Double(ride + 1)), "the pin stays, one segment later: \(plan)")
        for (index, segment) in segments.enumerated().prefix(ride) {
            XCTAssertNotEqual(segment["leg"], .null, "segment \(index + 1) before the pin is computed from the start: \(plan)")
        }
        XCTAssertTrue(segments.prefix(ride + 1).contains { $0["missed_connection"] == .bool(true) }, "the pin is missed: \(plan)")
        let proposal = try XCTUnwrap(plan["pending"]?.arrayValue?.first, "a missed pin gets a proposal: \(inserted.stdout)")
        XCTAssertEqual(proposal["segment"], .number(Double(ride + 1)))
        XCTAssertGreaterThan(try XCTUnwrap(proposal["latest"]?["departure"]?.stringValue),
                             try XCTUnwrap(pinnedLeg["departure"]?.stringValue), "a later ride: \(proposal)")
        let ready = try XCTUnwrap(plan["nodes"]?.arrayValue?[ride]["time"]?.stringValue, "when the traveller is at the pin's stop")
        XCTAssertEqual(proposal["latest"]?["arrival"]?.stringValue, try bestCatchable(id, segment: ride + 1, ready: ready),
                       "the earliest arrival from when the traveller is at the stop (\(ready)): \(proposal)")
        XCTAssertTrue(try harness.umctl(["plan", "show", id]).stdout.contains("pending on segment \(ride + 1)"))
    }
}
