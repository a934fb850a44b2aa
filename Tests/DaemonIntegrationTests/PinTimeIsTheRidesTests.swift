import Foundation
import WireProtocol
import XCTest

/// Trial 55 findings 1 and 6: a pin's time is when its ride leaves its stop, as the plan shows
/// the ride ("07:42 bus 6 … Tays C", "pinned to leave 08:20"); `plan pin` read it as when the
/// traveller leaves the node, so pinning the minute on the screen pinned a later ride, silently.
/// A ride re-pinned to another line's stop kept the old inferred stop, a walk away.
final class PinTimeIsTheRidesTests: SharedTampereDaemonTestCase {
    /// `plan new Keskustori Tampere-talo TAYS Kaleva Pyynikintori --at 07:10`: segment 4 shows
    /// bus 6 leaving Tays C at 07:42 after a 2-min walk from TAYS A; `plan pin ID 4 07:42` pinned
    /// bus 28 at 07:51. Every ride the plan shows after a walk to its stop, pinned by its minute,
    /// is that ride (the same trip), shown pinned to leave then.
    func testPinningTheMinuteTheplanShowsARideLeavingPinsThatRide() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Tampere-talo", "TAYS", "Kaleva", "Pyynikintori",
                                        "--mode", "transit", "--at", "2022-01-12T07:10"])
        let plan = try id(created)
        let walkedTo = transitSegments(created).filter { index in
            let leg = segments(created)[index]["leg"]
            guard let leaves = date(leg?["departure"]), let boards = date(leg?["rides"]?.arrayValue?.first?["departure"]) else { return false }
            return Self.minute(boards) > Self.minute(leaves)
        }
        XCTAssertFalse(walkedTo.isEmpty, "a ride the plan walks to its stop for: \(created)")
        for index in walkedTo {
            let ride = try XCTUnwrap(segments(try harness.json(["plan", "show", plan]))[index]["leg"]?["rides"]?.arrayValue?.first, "\(created)")
            let shown = try XCTUnwrap(ride["departure"]?.stringValue, "\(ride)")
            let minute = String(shown.dropFirst(11).prefix(5))
            let pinned = try harness.json(["plan", "pin", plan, String(index + 1), minute])
            let pinnedRide = segments(pinned)[index]["leg"]?["rides"]?.arrayValue?.first
            XCTAssertEqual(pinnedRide?["trip_id"], ride["trip_id"], "pinning \(minute) pins the ride shown leaving then: \(pinned)")
            let pin = (pinned["pins"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(index + 1)) }
            XCTAssertEqual(pin?["departure"]?.stringValue.map { String($0.dropFirst(11).prefix(5)) }, minute, "\(pinned)")
            XCTAssertNil(pinned["mode_notes"], "nothing to say when the ride asked for is pinned: \(pinned)")
            let text = try harness.umctl(["plan", "show", plan]).stdout
            XCTAssertTrue(text.contains("seg \(index + 1) pinned to leave \(minute)"), text)
        }
    }

    /// Trial 56: pinning the minute a later ride of a segment's journey leaves (the bus after the
    /// change) pinned another ride: `plan new Lielahti TAYS --at 09:20` shows bus 38 at 09:42
    /// after bus 19; `plan pin ID 1 09:42` pinned bus 19 at 10:03, arriving 10:21 instead of 09:52,
    /// and with `--line` the same. The journey shown is pinned.
    func testPinningTheMinuteALaterRideOfTheJourneyLeavesPinsThatJourney() throws {
        let harness = try harness
        for withLine in [false, true] {
            let created = try harness.json(["plan", "new", "Lielahti", "TAYS", "--mode", "transit", "--at", "2022-01-12T09:20"])
            let plan = try id(created)
            let index = try XCTUnwrap(transitSegments(created).first { (segments(created)[$0]["leg"]?["rides"]?.arrayValue?.count ?? 0) > 1 },
                                      "a journey with a change: \(created)")
            let rides = try XCTUnwrap(segments(created)[index]["leg"]?["rides"]?.arrayValue, "\(created)")
            let second = rides[1]
            let minute = String(try XCTUnwrap(second["departure"]?.stringValue, "\(second)").dropFirst(11).prefix(5))
            let line = try XCTUnwrap(second["line"]?.stringValue, "\(second)")
            let pinned = try harness.json(["plan", "pin", plan, String(index + 1), minute] + (withLine ? ["--line", line] : []))
            XCTAssertEqual(segments(pinned)[index]["leg"]?["rides"]?.arrayValue?.map { $0["trip_id"] }, rides.map { $0["trip_id"] },
                           "pinning \(minute)\(withLine ? " --line \(line)" : "") pins the journey shown: \(pinned)")
            XCTAssertEqual(segments(pinned)[index]["leg"]?["arrival"], segments(created)[index]["leg"]?["arrival"], "\(pinned)")
        }
    }

    /// After `plan accept` the plan read "pinned to leave 08:20" (bus 6), and `plan pin ID 2 08:20`
    /// pinned bus 95X at 08:25. The time a pin is shown leaving, typed back, pins the same ride; and
    /// the pending line names both rides by the minute they leave ("selected bus 6 leaves 07:42 …
    /// → proposed leaves 08:19 … bus 6 at 08:20" mixed the two readings).
    func testTheTimeAPinIsShownLeavingPinsTheSameRideAgain() throws {
        let harness = try harness
        let (plan, pinned) = try pinMissedByWalkingThere(harness)
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        let pending = try XCTUnwrap(shown.split(separator: "\n").first { $0.contains("pending on segment \(pinned + 1):") }, shown)
        let proposal = try XCTUnwrap((try harness.json(["plan", "show", plan])["pending"]?.arrayValue ?? []).first?["latest"], shown)
        let proposedRide = try XCTUnwrap(proposal["rides"]?.arrayValue?.first, "\(proposal)")
        let proposedMinute = try XCTUnwrap(proposedRide["departure"]?.stringValue, "\(proposedRide)").dropFirst(11).prefix(5)
        XCTAssertTrue(pending.contains("→ proposed \(proposedRide["vehicle"]?.stringValue ?? "?") \(proposedRide["line"]?.stringValue ?? "?") "
                                       + "leaves \(proposedMinute)"), "the proposal leaves as its ride does: \(pending)")
        let accepted = try harness.json(["plan", "accept", plan, String(pinned + 1)])
        let pin = try XCTUnwrap((accepted["pins"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(pinned + 1)) }, "\(accepted)")
        let minute = try XCTUnwrap(pin["departure"]?.stringValue, "\(pin)").dropFirst(11).prefix(5)
        XCTAssertEqual(minute, proposedMinute, "the accepted pin leaves as its ride did: \(accepted)")
        let trips = segments(accepted)[pinned]["leg"]?["rides"]?.arrayValue?.map { $0["trip_id"] }
        let again = try harness.json(["plan", "pin", plan, String(pinned + 1), String(minute)])
        XCTAssertEqual(segments(again)[pinned]["leg"]?["rides"]?.arrayValue?.map { $0["trip_id"] }, trips,
                       "pinned again at \(minute), the same ride: \(again)")
    }

    /// A minute no ride leaves in: the next ride the traveller can catch is pinned, and the answer
    /// says so, naming it ("segment 4: no ride you can catch leaves at 07:43; pinned the next, bus
    /// 28 from Tays C at 07:51"); the plan never pins a ride other than the one asked for without a word.
    func testAMinuteNoRideLeavesInPinsTheNextAndSaysSo() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Tampere-talo", "TAYS", "Kaleva", "Pyynikintori",
                                        "--mode", "transit", "--at", "2022-01-12T07:10"])
        let plan = try id(created), index = try XCTUnwrap(transitSegments(created).last, "\(created)")
        let boards = try XCTUnwrap(date(segments(created)[index]["leg"]?["rides"]?.arrayValue?.first?["departure"]), "\(created)")
        let asked = Date(timeIntervalSince1970: Double(Self.minute(boards) + 1) * 60)
        var helsinki = Calendar(identifier: .gregorian)
        helsinki.timeZone = try XCTUnwrap(TimeZone(identifier: "Europe/Helsinki"))
        let parts = helsinki.dateComponents([.hour, .minute], from: asked)
        let minute = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        let pinned = try harness.json(["plan", "pin", plan, String(index + 1), minute])
        let ride = try XCTUnwrap(segments(pinned)[index]["leg"]?["rides"]?.arrayValue?.first, "\(pinned)")
        let leaves = try XCTUnwrap(ride["departure"]?.stringValue, "\(ride)")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(date(ride["departure"])), asked, "never a ride before the minute asked: \(pinned)")
        let shown = leaves.dropFirst(11).prefix(5)
        guard shown != minute else { return XCTFail("a ride leaves at \(minute) after all; the test needs a minute none leaves in: \(pinned)") }
        let said = "segment \(index + 1): no ride you can catch leaves at \(minute); pinned the next, \(ride["vehicle"]?.stringValue ?? "?") "
            + "\(ride["line"]?.stringValue ?? "?") from \(ride["from"]?.stringValue ?? "?") at \(shown)"
        XCTAssertEqual(pinned["mode_notes"], .array([.string(said)]), "\(pinned)")
        let text = try harness.umctl(["plan", "pin", plan, String(index + 1), minute]).stdout
        XCTAssertTrue(text.contains(said), text)
    }

    /// Trial 55 finding 6: `plan new Hervanta TAYS Keskustori --at 07:00`, bus 6 pinned, segment 1
    /// walked, the proposal accepted, then re-pinned to bus 95X, which alights at Rautatieasema E:
    /// the node stayed Rautatieasema C, a 191 m walk on, then 484 m to Keskustori (660 m from E).
    /// A pinned ride's inferred stops are its own: the node is the stop the new ride alights at.
    func testARidePinnedAgainOnAnotherLineTakesItsOwnStops() throws {
        let harness = try harness
        let (plan, pinned) = try pinMissedByWalkingThere(harness)
        let accepted = try harness.json(["plan", "accept", plan, String(pinned + 1)])
        let lines = segments(accepted)[pinned]["leg"]?["rides"]?.arrayValue?.map { $0["line"] }
        let options = try harness.json(["plan", "alternatives", plan, String(pinned + 1), "--count", "8"])
        let alights = segments(accepted)[pinned]["leg"]?["rides"]?.arrayValue?.last?["to"]
        let other = try XCTUnwrap((options["options"]?.arrayValue ?? []).first { option in
            option["rides"]?.arrayValue?.map { $0["line"] } != lines && option["rides"]?.arrayValue?.last?["to"] != alights
        }, "an option on another line alighting at another stop: \(options)")
        let minute = try XCTUnwrap(other["rides"]?.arrayValue?.first?["departure"]?.stringValue, "\(other)").dropFirst(11).prefix(5)
        let repinned = try harness.json(["plan", "pin", plan, String(pinned + 1), String(minute)])
        let ride = try XCTUnwrap(segments(repinned)[pinned]["leg"]?["rides"]?.arrayValue?.last, "\(repinned)")
        XCTAssertEqual(nodes(repinned)[pinned + 1]["name"], ride["to"], "the node after the pinned ride is its stop: \(repinned)")
        XCTAssertFalse((segments(repinned)[pinned]["leg"]?["walks"]?.arrayValue ?? []).contains { $0["kind"] == .string("egress") },
                       "no walk on from the ride's stop to another: \(repinned)")
    }

    /// `plan alternatives` of the segment before a pinned ride said "too late for segment 2, pinned
    /// to leave 07:40" where the plan said "pinned to leave 07:42" (the walk to its stop leaves at
    /// 07:40). An option too late for a pin names it as the plan shows it, and the walk by its own time.
    func testAnOptionTooLateForAPinnedRideNamesThePinAsThePlanShowsIt() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hervanta", "TAYS", "Keskustori", "--mode", "transit", "--at", "2022-01-12T07:00"])
        let plan = try id(created), pinned = try XCTUnwrap(transitSegments(created).last, "\(created)")
        XCTAssertGreaterThan(pinned, 0, "a segment before the pinned ride: \(created)")
        let leaves = try XCTUnwrap(segments(created)[pinned]["leg"]?["rides"]?.arrayValue?.first?["departure"]?.stringValue, "\(created)")
        let shown = try harness.json(["plan", "pin", plan, String(pinned + 1), String(leaves.dropFirst(11).prefix(5))])
        let pin = try XCTUnwrap((shown["pins"]?.arrayValue ?? []).first, "\(shown)")
        let walkLeaves = try XCTUnwrap(segments(shown)[pinned]["leg"]?["departure"]?.stringValue, "\(shown)")
        func clock(_ iso: String?) -> String { iso.map { String($0.dropFirst(11).prefix(5)) } ?? "?" }
        XCTAssertNotEqual(clock(walkLeaves), clock(pin["departure"]?.stringValue), "the walk to the ride's stop leaves earlier: \(shown)")
        let options = try harness.json(["plan", "alternatives", plan, String(pinned), "--count", "8"])
        let conflicts = options["pin_conflicts"]?.arrayValue ?? []
        XCTAssertFalse(conflicts.isEmpty, "an option arrives too late for the pin: \(options)")
        for conflict in conflicts where conflict["kind"] == .string("arrives_too_late") {
            XCTAssertEqual(conflict["pinned"], pin["departure"], "the pin as the plan shows it: \(conflict)")
            XCTAssertEqual(clock(conflict["pinned_walk_leaves"]?.stringValue), clock(walkLeaves), "\(conflict)")
        }
        let text = try harness.umctl(["plan", "alternatives", plan, String(pinned), "--count", "8"]).stdout
        let said = "pinned to leave \(clock(pin["departure"]?.stringValue)), the walk to its stop leaving \(clock(walkLeaves))"
        XCTAssertTrue(text.contains(said), text)
    }

    /// The minute an instant is shown in, counted from the epoch.
    private static func minute(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / 60).rounded(.down)) }

    /// `plan new Hervanta TAYS Keskustori --at 07:00`, the ride from TAYS pinned by the minute the
    /// plan shows it, then the segment before it walked (1 h 16 min): the pin is missed, the next
    /// ride proposed. The plan's ID and the pinned segment (0-based).
    private func pinMissedByWalkingThere(_ harness: DaemonHarness) throws -> (plan: String, pinned: Int) {
        let created = try harness.json(["plan", "new", "Hervanta", "TAYS", "Keskustori", "--mode", "transit", "--at", "2022-01-12T07:00"])
        let plan = try id(created)
        let pinned = try XCTUnwrap(transitSegments(created).last, "\(created)")
        XCTAssertEqual(transitSegments(created).first, 0, "Hervanta rides to TAYS: \(created)")
        let leaves = try XCTUnwrap(segments(created)[pinned]["leg"]?["rides"]?.arrayValue?.first?["departure"]?.stringValue, "\(created)")
        _ = try harness.json(["plan", "pin", plan, String(pinned + 1), String(leaves.dropFirst(11).prefix(5))])
        let walked = try harness.json(["plan", "mode", plan, "1", "walk"])
        XCTAssertEqual(segments(walked)[pinned]["missed_connection"], .bool(true), "\(walked)")
        return (plan, pinned)
    }
}
