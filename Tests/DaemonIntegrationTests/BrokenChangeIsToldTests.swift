import Foundation
import Transit
import WireProtocol
import XCTest

/// Trial 58 F1 and F6, through the real daemon with a GTFS-Realtime feed served over HTTP on
/// 127.0.0.1: a pinned journey of two rides whose change a delay breaks (the first ride now
/// gets the traveller to the second's stop after it leaves) is a missed connection with a
/// proposal, as a missed pin is; and the words name the ride that fails, not the first one.
final class BrokenChangeIsToldTests: LiveRegionTestCase {
    /// "08:15" of "2022-01-12T08:15:00+02:00".
    func clock(_ iso: String?) -> String { iso.map { String($0.dropFirst(11).prefix(5)) } ?? "?" }

    func rides(_ leg: JSONValue?) -> [JSONValue] { leg?["rides"]?.arrayValue ?? [] }

    func named(_ ride: JSONValue) -> String { "\(ride["vehicle"]?.stringValue ?? "?") \(ride["line"]?.stringValue ?? "?")" }

    /// Seconds between when the traveller, off the first ride and through the change's walk, is
    /// at the second ride's stop and when the second ride leaves.
    func spare(_ leg: JSONValue) -> TimeInterval? {
        let legRides = rides(leg)
        guard legRides.count == 2, let off = date(legRides[0]["arrival"]), let on = date(legRides[1]["departure"]) else { return nil }
        let walk = leg["walks"]?.arrayValue?.first { $0["kind"] == .string("transfer") }?["duration_s"]?.numberValue ?? 0
        return on.timeIntervalSince(off.addingTimeInterval(walk))
    }

    /// Every change of the leg holds: each ride leaves once the one before it has arrived and the
    /// change's walk is done.
    func changesHold(_ leg: JSONValue?) -> Bool {
        let legRides = rides(leg)
        let changes = (leg?["walks"]?.arrayValue ?? []).filter { $0["kind"] == .string("transfer") }
        return legRides.indices.dropFirst().allSatisfy { index in
            guard let off = date(legRides[index - 1]["arrival"]), let on = date(legRides[index]["departure"]) else { return false }
            let walk = changes.indices.contains(index - 1) ? changes[index - 1]["duration_s"]?.numberValue ?? 0 : 0
            return on.timeIntervalSince(off) >= walk - 1
        }
    }

    /// Keskustori → Hervanta at 09:10 (trial 58's plan 17), a journey of two rides with a change
    /// chosen from `plan alternatives` (which pins it): the plan, its segment and the chosen leg.
    /// `timing`: the plan's time (an arrive-by plan: `--arrive-by …`).
    func chosenChange(timing: [String] = ["--at", "2022-01-12T09:10"]) throws -> (id: String, segment: Int, leg: JSONValue) {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit"] + timing)
        let plan = try id(created)
        let segment = try XCTUnwrap(transitSegments(created).first, "\(created)") + 1
        let options = try harness.json(["plan", "alternatives", plan, String(segment), "--count", "10"])["options"]?.arrayValue ?? []
        let option = try XCTUnwrap(options.firstIndex { spare($0) != nil }, "Tampere's timetable has a journey with a change: \(options)")
        // Named by its departure and trips, as `plan alternatives` prints the line to choose it.
        let trips = rides(options[option]).compactMap { $0["trip_id"]?.stringValue }
        let choose = try harness.umctl(["plan", "choose", plan, String(segment), String(option + 1), "--count", "10",
                                        "--departure", try XCTUnwrap(options[option]["departure"]?.stringValue)]
                                       + trips.flatMap { ["--trip", $0] })
        XCTAssertEqual(choose.status, 0, choose.stderr)
        let chosen = try XCTUnwrap(segments(try harness.json(["plan", "show", plan]))[segment - 1]["leg"])
        guard rides(chosen).compactMap({ $0["trip_id"]?.stringValue }) == trips else {
            throw HarnessError("the option with a change was not chosen: \(chosen)")
        }
        return (plan, segment, chosen)
    }

    func testAPinnedChangeADelayBreaksIsAMissedConnectionWithACatchableProposalNamedForTheMissedRide() throws {
        let chosen = try chosenChange()
        let (first, second) = (rides(chosen.leg)[0], rides(chosen.leg)[1])
        // Late by two minutes more than the change had to spare: bus 6 leaves before bus 19 is there.
        let delay = Int(try XCTUnwrap(spare(chosen.leg))) + 120
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(first, delay: delay)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)

        let plan = try live.eventually("the broken change is a missed connection") { () -> JSONValue? in
            let plan = try harness.json(["plan", "show", chosen.id])
            return segments(plan)[chosen.segment - 1]["missed_connection"] == .bool(true) ? plan : nil
        }
        let segment = segments(plan)[chosen.segment - 1]
        XCTAssertEqual(rides(segment["leg"]).first?["delay_s"], .number(Double(delay)), "the pinned journey keeps its live times: \(segment)")
        XCTAssertFalse(changesHold(segment["leg"]), "\(segment)")
        let reached = try XCTUnwrap(date(segment["reached"]), "when the first ride gets the traveller to the change: \(segment)")
        XCTAssertGreaterThan(reached, try XCTUnwrap(date(second["departure"])))
        XCTAssertEqual(segment["missed_change_ride"], .number(2), "the daemon names the ride the change misses: \(segment)")

        let proposal = try XCTUnwrap(plan["pending"]?.arrayValue?.first, "the broken change gets a proposal: \(plan)")
        XCTAssertEqual(proposal["segment"], .number(Double(chosen.segment)))
        let latest = try XCTUnwrap(proposal["latest"], "a ride to catch: \(proposal)")
        XCTAssertTrue(changesHold(latest), "the proposal can be caught, change and all: \(latest)")
        XCTAssertNotEqual(rides(latest).compactMap { $0["trip_id"]?.stringValue }, rides(chosen.leg).compactMap { $0["trip_id"]?.stringValue })
        let start = try XCTUnwrap(date(.string("2022-01-12T09:10:00+02:00")))
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(date(latest["departure"])), start, "\(latest)")
        // The earliest arrival the traveller can still catch: no option listed from the start arrives earlier.
        let listed = try harness.json(["plan", "alternatives", chosen.id, String(chosen.segment), "--count", "10"])["options"]?.arrayValue ?? []
        let arrival = try XCTUnwrap(date(latest["arrival"]))
        for option in listed where (date(option["departure"]) ?? .distantPast) >= start && changesHold(option) {
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(date(option["arrival"])), arrival, "option \(option) beats the proposal \(latest)")
        }

        let shown = try harness.umctl(["plan", "show", chosen.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("missed: the change at \(second["from"]?.stringValue ?? "?"): \(named(second)) leaves at "),
                      shown.stdout)
        XCTAssertTrue(shown.stdout.contains("instead of the missed \(named(second)) at \(clock(second["departure"]?.stringValue))"),
                      "the ride missed is named, not the first: \(shown.stdout)")
        let agenda = try harness.json(["agenda"]).decode(as: AgendaDocument.self)
        let entry = try XCTUnwrap(agenda.plans.first { String($0.id) == chosen.id }, "\(agenda)")
        XCTAssertTrue(entry.states.contains("missed_change"), "the agenda says so: \(entry.states)")

        // Unpinned, the plan is asked again with the live times: its journey's changes hold.
        XCTAssertEqual(try harness.umctl(["plan", "unpin", chosen.id]).status, 0)
        let unpinned = try harness.json(["plan", "show", chosen.id])
        XCTAssertFalse(segments(unpinned).contains { $0["missed_connection"] == .bool(true) }, "\(unpinned)")
        XCTAssertTrue(changesHold(segments(unpinned)[chosen.segment - 1]["leg"]), "\(unpinned)")
    }

    func testAProposalForAJourneyWhoseSecondRideIsCancelledNamesTheCancelledRide() throws {
        let chosen = try chosenChange()
        let second = rides(chosen.leg)[1]
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(second, cancelled: true)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        let proposal = try live.eventually("the cancelled ride gets a proposal") { () -> JSONValue? in
            try harness.json(["plan", "show", chosen.id])["pending"]?.arrayValue?.first { $0["latest"]?["rides"] != nil }
        }
        let shown = try harness.umctl(["plan", "show", chosen.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let first = try XCTUnwrap(rides(proposal["latest"]).first)
        XCTAssertTrue(shown.stdout.contains("\(named(first)) at \(clock(first["departure"]?.stringValue)) instead of the cancelled "
                                            + "\(named(second)) at \(clock(second["departure"]?.stringValue))"),
                      "names the ride cancelled, the second: \(shown.stdout)")
    }

    /// Trial 60 F3's twin: with the second ride of a pinned journey cancelled, the start showed
    /// when the cancelled journey leaves (09:47), the nodes after it none (the proposal, leaving
    /// 09:15, gets there earlier) and the total the cancelled journey's as if it ran. The plan's
    /// times, the agenda's and the total follow the proposal, from when its walk leaves.
    func testAJourneyWithACancelledRideShowsTheProposalsTimesFromTheStartToTheEnd() throws {
        let chosen = try chosenChange()
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(rides(chosen.leg)[1], cancelled: true)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        let plan = try live.eventually("the cancelled ride gets a proposal") { () -> JSONValue? in
            let plan = try harness.json(["plan", "show", chosen.id])
            return plan["pending"]?.arrayValue?.first?["latest"]?["rides"] != nil ? plan : nil
        }
        try assertTimedAsTheProposal(plan, id: chosen.id, segment: chosen.segment, total: ["total_duration_s", "total_following_proposals_s"])
    }

    /// The plan, its total and the agenda timed as the traveller follows the proposal of `segment`
    /// (1-based): its start node when the proposal leaves, its end when it arrives, the total (the
    /// first of `total`'s fields the plan has) from the start shown to the end shown, the agenda alike.
    private func assertTimedAsTheProposal(_ plan: JSONValue, id: String, segment: Int, total fields: [String],
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        let latest = try XCTUnwrap(plan["pending"]?.arrayValue?.first?["latest"], "\(plan)", file: file, line: line)
        let (leaves, arrives) = (try XCTUnwrap(date(latest["departure"]), file: file, line: line),
                                 try XCTUnwrap(date(latest["arrival"]), file: file, line: line))
        let nodes = plan["nodes"]?.arrayValue ?? []
        XCTAssertEqual(date(nodes[segment - 1]["time"]), leaves, "the start shows when the proposal leaves: \(nodes)", file: file, line: line)
        XCTAssertEqual(date(nodes[segment]["time"]), arrives, "the end shows when the proposal arrives: \(nodes)", file: file, line: line)
        // The plan's end: the proposal's arrival and whatever follows it, from when the proposal leaves.
        let end = try XCTUnwrap(date(nodes.last?["time"]), "\(nodes)", file: file, line: line)
        let total = try XCTUnwrap(fields.lazy.compactMap { plan[$0]?.numberValue }.first, "\(plan)", file: file, line: line)
        XCTAssertEqual(total, end.timeIntervalSince(try XCTUnwrap(date(nodes.first?["time"]), file: file, line: line)), accuracy: 1,
                       "\(plan)", file: file, line: line)
        let agenda = try harness.json(["agenda"]).decode(as: AgendaDocument.self)
        let entry = try XCTUnwrap(agenda.plans.first { String($0.id) == id }, "\(agenda)", file: file, line: line)
        XCTAssertEqual(date(.string(entry.leave)), leaves, "the agenda leaves with the proposal: \(entry)", file: file, line: line)
        XCTAssertEqual(date(entry.arrival.map(JSONValue.string)), end, "\(entry)", file: file, line: line)
    }

    /// Trial 58 F6, plan 235: the feed skipped only the pinned tram's stop; the tram ran, and
    /// `plan show` called it "cancelled" ("instead of the cancelled 10:04").
    func testARideWhoseStopTheFeedSkipsIsSaidNotToStopThereNotCancelled() throws {
        let pinned = try live.pinnedPlan()
        let from = try XCTUnwrap(pinned.ride["from"]?.stringValue)
        let proposal = try live.skippingTheBoardingStop(of: pinned.ride, inPlan: pinned.id).proposal
        let selected = try XCTUnwrap(rides(proposal["selected"]).first, "\(proposal)")
        XCTAssertEqual(selected["cancelled"], .bool(true), "it can't be taken there: \(selected)")
        XCTAssertEqual(selected["skipped_stop"], .string(from), "the trip runs past \(from): \(selected)")
        let shown = try harness.umctl(["plan", "show", pinned.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("which does not stop at \(from)"), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("instead of the cancelled") || shown.stdout.contains("(cancelled)")
                       || shown.stdout.contains("  cancelled"), "the trip runs: \(shown.stdout)")
    }

    /// A delay of the first ride of the chosen journey that breaks its change (two minutes more
    /// than the change had to spare), served and set; returns the plan once it shows the break.
    func breakTheChange(_ chosen: (id: String, segment: Int, leg: JSONValue)) throws -> JSONValue {
        let delay = Int(try XCTUnwrap(spare(chosen.leg))) + 120
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(rides(chosen.leg)[0], delay: delay)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        return try live.eventually("the broken change is a missed connection with a proposal") { () -> JSONValue? in
            let plan = try harness.json(["plan", "show", chosen.id])
            return segments(plan)[chosen.segment - 1]["missed_connection"] == .bool(true)
                && plan["pending"]?.arrayValue?.first?["latest"]?["rides"] != nil ? plan : nil
        }
    }

    /// Session 59 (issue 39, "what it says is true"): a journey caught at its start and missed at
    /// its change is a missed change in the agenda and in the price's words, not a "cancelled"
    /// ride nor a ride missed at its start.
    func testABrokenChangeIsTheAgendasMissedChangeAndThePriceSaysTheChangeWasMissed() throws {
        let chosen = try chosenChange()
        let second = rides(chosen.leg)[1]
        let plan = try breakTheChange(chosen)
        let agenda = try harness.json(["agenda"]).decode(as: AgendaDocument.self)
        let entry = try XCTUnwrap(agenda.plans.first { String($0.id) == chosen.id }, "\(agenda)")
        XCTAssertTrue(entry.states.contains("missed_change"), "\(entry.states)")
        XCTAssertFalse(entry.states.contains("cancelled") || entry.states.contains("missed_connection"),
                       "the journey is caught at its start and nothing is cancelled: \(entry.states)")
        let at = try XCTUnwrap(second["from"]?.stringValue)
        XCTAssertTrue(entry.stateWords.contains("missed change at \(at) on segment \(chosen.segment)"), "\(entry.stateWords)")

        let note = try XCTUnwrap(plan["price_note"]?.stringValue, "the total says how it is priced: \(plan)")
        XCTAssertTrue(note.contains("the journey with a missed change on segment \(chosen.segment) priced as the one proposed"), note)
        let share = segments(plan)[chosen.segment - 1]["leg"]?["price_note"]?.stringValue ?? ""
        XCTAssertTrue(share.hasPrefix("the journey with a missed change priced as the one proposed"), share)
        XCTAssertFalse(note.contains("cancelled") || share.contains("cancelled"), "\(note) / \(share)")
        // The calendar export names the change missed, not "the traveller cannot be there in time".
        let ics = try harness.umctl(["plan", "export", chosen.id, "--format", "ics"])
        XCTAssertEqual(ics.status, 0, ics.stderr)
        let unfolded = ics.stdout.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        XCTAssertTrue(unfolded.contains("Missed change at \(at): \(named(second)) leaves \(clock(second["departure"]?.stringValue))"), unfolded)
    }

    /// Session 59: the reminder of a missed connection for a journey missed at its change names
    /// the change ("the change at Kivikirkko: bus 6 leaves 09:33, bus 19 gets you there 09:35"),
    /// not the journey's first departure, which the traveller still catches.
    func testTheMissedConnectionReminderOfABrokenChangeNamesTheChange() throws {
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        let chosen = try chosenChange()
        let (first, second) = (rides(chosen.leg)[0], rides(chosen.leg)[1])
        let plan = try breakTheChange(chosen)
        let reached = try XCTUnwrap(segments(plan)[chosen.segment - 1]["reached"]?.stringValue, "\(plan)")
        // The plan leaves after 09:00, the daemon's clock is at 07:00: a long lead looks at it now.
        XCTAssertEqual(try harness.umctl(["plan", "remind", chosen.id, "on", "--lead", "180m"]).status, 0)
        let events = try watch.events(until: { events in
            events.contains { $0["kind"] == .string("reminder") && $0["notice"] == .string("missed_connection") }
        }, seconds: 180)
        let reminder = try XCTUnwrap(events.first { $0["kind"] == .string("reminder") && $0["notice"] == .string("missed_connection") })
        let body = try XCTUnwrap(reminder["body"]?.stringValue)
        XCTAssertTrue(body.hasPrefix("The change at \(second["from"]?.stringValue ?? "?") on step \(chosen.segment) can no longer be made: "
                                     + "\(named(second)) leaves \(clock(second["departure"]?.stringValue)), "
                                     + "\(named(first)) gets you there \(clock(reached))"), body)
        XCTAssertFalse(body.contains("The \(clock(first["departure"]?.stringValue)) departure"), "the first ride is caught: \(body)")
    }

    /// Session 59: a ride whose stop the feed skips runs: the price and the agenda say it does
    /// not stop there, never "cancelled" (the price note said "the cancelled ride priced as the
    /// one proposed", the agenda `cancelled`).
    func testARideWhoseStopTheFeedSkipsIsPricedAndListedAsNotStoppingThere() throws {
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        let pinned = try live.pinnedPlan()
        let from = try XCTUnwrap(pinned.ride["from"]?.stringValue)
        let plan = try live.skippingTheBoardingStop(of: pinned.ride, inPlan: pinned.id).plan
        let note = try XCTUnwrap(plan["price_note"]?.stringValue, "the total says how it is priced: \(plan)")
        XCTAssertTrue(note.contains("the ride not stopping at \(from) on segment \(pinned.segment) priced as the one proposed"), note)
        let share = segments(plan)[pinned.segment - 1]["leg"]?["price_note"]?.stringValue ?? ""
        XCTAssertTrue(share.hasPrefix("the ride not stopping at \(from) priced as the one proposed"), share)
        XCTAssertFalse(note.contains("cancelled") || share.contains("cancelled"), "the trip runs: \(note) / \(share)")

        let agenda = try harness.json(["agenda"]).decode(as: AgendaDocument.self)
        let entry = try XCTUnwrap(agenda.plans.first { String($0.id) == pinned.id }, "\(agenda)")
        XCTAssertTrue(entry.states.contains("skips_stop"), "\(entry.states)")
        XCTAssertFalse(entry.states.contains("cancelled"), "the trip runs: \(entry.states)")
        XCTAssertTrue(entry.stateWords.contains("\(named(pinned.ride)) does not stop at \(from)"), "\(entry.stateWords)")
        // The calendar export says it too (it said "(cancelled)").
        let ics = try harness.umctl(["plan", "export", pinned.id, "--format", "ics"])
        XCTAssertEqual(ics.status, 0, ics.stderr)
        let unfolded = ics.stdout.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        XCTAssertTrue(unfolded.contains("(does not stop at \(from))"), unfolded)
        XCTAssertFalse(unfolded.contains("(cancelled)"), unfolded)
        // The `cancelled` event (and the notice made of it) says which stop the running trip skips.
        let events = try watch.events(until: { $0.contains { $0["kind"] == .string("cancelled") } })
        let event = try XCTUnwrap(events.first { $0["kind"] == .string("cancelled") })
        XCTAssertEqual(event["skipped_stop"], .string(from), "\(event)")
    }

    /// Trial 60 F3: a pinned journey missed at its change, with a proposal, showed its start node
    /// at 09:51 (when the late bus 19's walk leaves) and its end at the proposal's arrival 10:11,
    /// which needs leaving 09:45: a leave time from which the arrival shown is impossible. The
    /// plan's times, the agenda's and the total follow the proposal, from when its walk leaves.
    func testAJourneyMissedAtItsChangeShowsTheProposalsTimesFromTheStartToTheEnd() throws {
        let chosen = try chosenChange()
        let plan = try breakTheChange(chosen)
        try assertTimedAsTheProposal(plan, id: chosen.id, segment: chosen.segment, total: ["total_following_proposals_s"])
        let shown = try harness.umctl(["plan", "show", chosen.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("following the proposal (as pinned a connection is missed)"), shown.stdout)
    }

    /// Session 59 (brief item 4): in an arrive-by plan, a delay that breaks the change of a pinned
    /// journey of two rides (which still arrives in time by its live times) is flagged missed at
    /// the change, worded as in a depart-at plan (not "late"), and proposed by the arrive-by
    /// mirror of the proposal rule: the latest-leaving journey that still arrives in time.
    func testABrokenChangeInAnArriveByPlanIsMissedAtTheChangeWithTheLatestJourneyArrivingInTimeProposed() throws {
        let deadline = "2022-01-12T10:00:00+02:00"
        let chosen = try chosenChange(timing: ["--arrive-by", "2022-01-12T10:00"])
        let second = rides(chosen.leg)[1]
        let plan = try breakTheChange(chosen)
        let segment = segments(plan)[chosen.segment - 1]
        XCTAssertEqual(segment["missed_as"], .string("missed"), "missed at the change, not late: \(segment)")
        XCTAssertFalse(changesHold(segment["leg"]), "\(segment)")
        let reached = try XCTUnwrap(date(segment["reached"]), "when the first ride gets the traveller to the change: \(segment)")
        XCTAssertGreaterThan(reached, try XCTUnwrap(date(second["departure"])))

        let proposal = try XCTUnwrap(plan["pending"]?.arrayValue?.first, "\(plan)")
        XCTAssertEqual(proposal["segment"], .number(Double(chosen.segment)))
        let latest = try XCTUnwrap(proposal["latest"], "a ride to catch: \(proposal)")
        XCTAssertTrue(changesHold(latest), "the proposal can be made, change and all: \(latest)")
        let due = try XCTUnwrap(date(.string(deadline)))
        XCTAssertLessThanOrEqual(try XCTUnwrap(date(latest["arrival"])), due, "it arrives in time: \(latest)")
        // The latest-leaving journey that arrives in time: no option listed that arrives in time leaves later.
        let listed = try harness.json(["plan", "alternatives", chosen.id, String(chosen.segment), "--count", "10"])["options"]?.arrayValue ?? []
        let leaves = try XCTUnwrap(date(latest["departure"]))
        for option in listed where (date(option["arrival"]) ?? .distantFuture) <= due && changesHold(option) {
            XCTAssertLessThanOrEqual(try XCTUnwrap(date(option["departure"])), leaves, "option \(option) beats the proposal \(latest)")
        }

        let shown = try harness.umctl(["plan", "show", chosen.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("missed: the change at \(second["from"]?.stringValue ?? "?"): \(named(second)) leaves at "),
                      shown.stdout)
        XCTAssertTrue(shown.stdout.contains("instead of the missed \(named(second)) at \(clock(second["departure"]?.stringValue))"),
                      shown.stdout)
        XCTAssertFalse(shown.stdout.contains("late: it arrives"), "it arrives in time: \(shown.stdout)")
        // Nor does the total say so (trial 59b: "… following the proposal (as pinned it arrives too late)").
        XCTAssertFalse(shown.stdout.contains("too late)"), "the total says a change is missed: \(shown.stdout)")
        let agenda = try harness.json(["agenda"]).decode(as: AgendaDocument.self)
        let entry = try XCTUnwrap(agenda.plans.first { String($0.id) == chosen.id }, "\(agenda)")
        XCTAssertTrue(entry.states.contains("missed_change"), "\(entry.states)")
    }

    /// Session 59, seen in the web page's picture: a journey missed at a change a delay broke was
    /// said to be missed because "the start at 09:10 holds, so the pin on segment 1 is missed";
    /// the start holds nothing here, the delay broke the change. No constraint is named.
    func testABrokenChangeIsNotSaidToGiveWayToTheStart() throws {
        let chosen = try chosenChange()
        let plan = try breakTheChange(chosen)
        let segment = segments(plan)[chosen.segment - 1]
        XCTAssertEqual(segment["gives_way"] ?? .null, .null, "nothing the user set gives way: \(segment)")
        let shown = try harness.umctl(["plan", "show", chosen.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertFalse(shown.stdout.contains("holds, so the pin on segment"), shown.stdout)
    }
}
