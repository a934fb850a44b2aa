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
    func chosenChange() throws -> (id: String, segment: Int, leg: JSONValue) {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit",
                                        "--at", "2022-01-12T09:10"])
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
        XCTAssertTrue(entry.states.contains("missed_connection"), "the agenda says so: \(entry.states)")

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

    /// Trial 58 F6, plan 235: the feed skipped only the pinned tram's stop; the tram ran, and
    /// `plan show` called it "cancelled" ("instead of the cancelled 10:04").
    func testARideWhoseStopTheFeedSkipsIsSaidNotToStopThereNotCancelled() throws {
        let pinned = try live.pinnedPlan()
        let stop = try XCTUnwrap(pinned.ride["from_stop_id"]?.stringValue, "\(pinned.ride)")
        let from = try XCTUnwrap(pinned.ride["from"]?.stringValue)
        let trip = try XCTUnwrap(pinned.ride["trip_id"]?.stringValue)
        let update = RealtimeTripUpdate(entityID: "skip-\(trip)", trip: RealtimeTripDescriptor(tripID: trip, startDate: "20220112"),
                                        stopTimeUpdates: [RealtimeStopTimeUpdate(stopID: stop, relationship: .skipped)])
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [update]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        let proposal = try live.eventually("the skipped stop gets a proposal") { () -> JSONValue? in
            try harness.json(["plan", "show", pinned.id])["pending"]?.arrayValue?.first { $0["latest"]?["rides"] != nil }
        }
        let selected = try XCTUnwrap(rides(proposal["selected"]).first, "\(proposal)")
        XCTAssertEqual(selected["cancelled"], .bool(true), "it can't be taken there: \(selected)")
        XCTAssertEqual(selected["skipped_stop"], .string(from), "the trip runs past \(from): \(selected)")
        let shown = try harness.umctl(["plan", "show", pinned.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("which does not stop at \(from)"), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("instead of the cancelled") || shown.stdout.contains("(cancelled)")
                       || shown.stdout.contains("  cancelled"), "the trip runs: \(shown.stdout)")
    }
}
