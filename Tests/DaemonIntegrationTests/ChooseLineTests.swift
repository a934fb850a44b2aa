import Foundation
import WireProtocol
import XCTest

/// `umctl plan alternatives` prints, for each transit option, the `umctl plan choose` line that
/// names it by its departure and trips: copied after another edit has shifted the list, the
/// line still takes the trips the user saw, not whatever now holds that number.
final class ChooseLineTests: SharedTampereDaemonTestCase {
    /// Runs `line` as a user pasting it into a shell does, with this daemon's socket.
    func runPasted(_ line: String) throws -> DaemonHarness.CommandResult {
        let harness = try harness
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = DaemonHarness.binaries.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment[DefaultSocketPath.environmentVariable] = harness.socketPath
        return try DaemonHarness.run("/bin/sh", ["-c", line], in: harness.directory, environment: environment)
    }

    /// A transit plan from Keskustori at 08:00, its transit segment, and the choose line
    /// `umctl plan alternatives` prints for option 1.
    func optionOneLine() throws -> (id: String, segment: Int, line: String) {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let id = try id(created)
        let segment = try XCTUnwrap(transitSegments(created).first, "\(created)") + 1
        let table = try harness.umctl(["plan", "alternatives", id, String(segment)])
        XCTAssertEqual(table.status, 0, table.stderr)
        let line = try XCTUnwrap(table.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("umctl plan choose \(id) \(segment) 1 ") }, "a choose line for option 1: \(table.stdout)")
        return (id, segment, line)
    }

    func trips(_ leg: JSONValue?) -> [String] {
        (leg?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue }
    }

    func testThePrintedChooseLineTakesTheListedTripsAfterAnotherEditShiftsTheList() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let id = try id(created)
        let segment = try XCTUnwrap(transitSegments(created).first, "\(created)") + 1
        let listed = try harness.json(["plan", "alternatives", id, String(segment)])["options"]?.arrayValue ?? []
        XCTAssertGreaterThanOrEqual(listed.count, 3, "\(listed)")
        let table = try harness.umctl(["plan", "alternatives", id, String(segment)])
        XCTAssertEqual(table.status, 0, table.stderr)
        let lines = table.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }

        // A stay at the origin until option 2 has left: the list asked again holds later buses,
        // so an option still offered has another number now (the first whose number now holds
        // another trip).
        let start = try XCTUnwrap(date(nodes(created).first?["time"]), "\(created)")
        let second = try XCTUnwrap(date(listed[1]["departure"]), "\(listed[1])")
        let minutes = Int((second.timeIntervalSince(start) / 60).rounded(.up)) + 1
        XCTAssertEqual(try harness.umctl(["plan", "stay", id, "1", "\(minutes)m"]).status, 0)
        let shifted = try harness.json(["plan", "alternatives", id, String(segment)])["options"]?.arrayValue ?? []
        let moved = (0..<min(listed.count, shifted.count)).first { k in
            !trips(listed[k]).isEmpty && trips(shifted[k]) != trips(listed[k]) && shifted.contains { trips($0) == trips(listed[k]) }
        }
        let k = try XCTUnwrap(moved, "the edit shifted an option still offered: \(listed) then \(shifted)")
        let seen = trips(listed[k])
        let line = try XCTUnwrap(lines.first { $0.hasPrefix("umctl plan choose \(id) \(segment) \(k + 1) ") },
                                 "a choose line for option \(k + 1): \(table.stdout)")
        XCTAssertTrue(line.contains("--departure") && seen.allSatisfy(line.contains), "names its departure and trips: \(line)")

        let chosen = try runPasted(line)
        XCTAssertEqual(chosen.status, 0, "\(line): \(chosen.stderr)")
        let shown = try harness.json(["plan", "show", id])
        XCTAssertEqual(trips(segments(shown)[segment - 1]["leg"]), seen,
                       "the trips listed, not option \(k + 1) of the shifted list: \(shown)")
        XCTAssertEqual(segments(shown)[segment - 1]["locked"], .bool(true))
    }

    /// Issue 39 item 5: a departure listed before the plan's start moved past it is no longer
    /// offered; choosing it by its departure and trips is a conflict and changes nothing.
    func testChoosingADepartureListedBeforeThePlanStartMovedPastItIsAConflictAndChangesNothing() throws {
        let harness = try harness
        let (id, _, line) = try optionOneLine()

        XCTAssertEqual(try harness.umctl(["plan", "time", id, "--at", "09:00"]).status, 0)
        let before = try harness.json(["plan", "show", id])
        let refused = try runPasted(line)
        XCTAssertEqual(refused.status, 1, "\(line): \(refused.stdout)")
        XCTAssertTrue(refused.stderr.contains("no option"), refused.stderr)
        let after = try harness.json(["plan", "show", id])
        XCTAssertEqual(after["generation"], before["generation"], "nothing changed")
        XCTAssertEqual(after, before)
    }

    /// Issue 39 item 5, found again by a user: after `plan stay` keeps the traveller at the
    /// segment's start past a listed departure, choosing that departure by its printed line is
    /// a conflict naming when they can leave, and changes nothing.
    func testChoosingADepartureAStayMadeUncatchableIsAConflictAndChangesNothing() throws {
        let harness = try harness
        let (id, segment, line) = try optionOneLine()

        // The segment's start node is node `segment`: held there until 09:30, past every option listed from 08:00.
        XCTAssertEqual(try harness.umctl(["plan", "stay", id, String(segment), "--until", "09:30"]).status, 0)
        let before = try harness.json(["plan", "show", id])
        let refused = try runPasted(line)
        XCTAssertEqual(refused.status, 1, "\(line): \(refused.stdout)")
        XCTAssertTrue(refused.stderr.contains("before the traveller can leave"), refused.stderr)
        let after = try harness.json(["plan", "show", id])
        XCTAssertEqual(after["generation"], before["generation"], "nothing changed")
        XCTAssertEqual(after, before)
    }

    /// Hervanta → Tampere-talo → Pyynikintori by transit (`--at` or `--arrive-by` `time`), the
    /// second segment walked and pinned to leave Tampere-talo at 07:45; the options listed for
    /// the first segment (1-based numbers) with their arrivals.
    func planWithAPinnedWalkAfterTheRide(_ timing: String, _ time: String) throws -> (id: String, options: [(number: Int, arrival: String)]) {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hervanta", "Tampere-talo", "Pyynikintori", "--mode", "transit", timing, time])
        let id = try id(created)
        XCTAssertEqual(try harness.umctl(["plan", "mode", id, "2", "walk"]).status, 0)
        let pinned = try harness.umctl(["plan", "pin", id, "2", "2022-01-12T07:45"])
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        let listed = try harness.json(["plan", "alternatives", id, "1", "--count", "5"])["options"]?.arrayValue ?? []
        return (id, listed.enumerated().compactMap { index, option in option["arrival"]?.stringValue.map { (index + 1, $0) } })
    }

    /// Choosing the first option of `options` arriving after the walk pinned at 07:45 is a
    /// conflict naming the pinned time, and changes nothing.
    private func assertChoosingALateOptionIsRefused(_ id: String, _ options: [(number: Int, arrival: String)]) throws {
        let harness = try harness
        let late = try XCTUnwrap(options.first { $0.arrival > "2022-01-12T07:45:00+02:00" }, "an option arriving after 07:45: \(options)")
        let before = try harness.json(["plan", "show", id])
        let refused = try harness.umctl(["plan", "choose", id, "1", String(late.number), "--count", "5"])
        XCTAssertEqual(refused.status, 1, "option \(late.number) arriving \(late.arrival): \(refused.stdout)")
        XCTAssertTrue(refused.stderr.contains("nothing was changed"), refused.stderr)
        // Times as the plan shows them (trial 49 finding 10), not ISO timestamps with seconds.
        XCTAssertTrue(refused.stderr.contains("pinned to leave at 07:45;"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("2022-01-12T"), refused.stderr)
        XCTAssertEqual(try harness.json(["plan", "show", id]), before, "nothing changed")
    }

    /// Issue 39 item 5 (trial 48): the traveller cannot take a ride arriving after the walk from
    /// its end is pinned to leave; choosing it is a conflict naming the pinned time, and changes
    /// nothing. An option arriving in time is still taken.
    func testChoosingAnOptionArrivingAfterTheNextPinnedWalkLeavesIsAConflictAndChangesNothing() throws {
        let harness = try harness
        let (id, options) = try planWithAPinnedWalkAfterTheRide("--at", "2022-01-12T06:50")
        try assertChoosingALateOptionIsRefused(id, options)

        let inTime = try XCTUnwrap(options.first { $0.arrival <= "2022-01-12T07:44:00+02:00" }, "an option arriving in time: \(options)")
        let taken = try harness.umctl(["plan", "choose", id, "1", String(inTime.number), "--count", "5"])
        XCTAssertEqual(taken.status, 0, "option \(inTime.number) arriving \(inTime.arrival): \(taken.stderr)")
    }

    /// The same in an arrive-by plan, which has no start to go forward from
    /// (`earliestArrivals` knows nothing there): the pin after the ride still holds.
    /// Its list holds only options arriving in time for the pin (timed back from it), so the
    /// late ride is named as the depart-at plan's list prints it (`--departure`, `--trip`).
    func testInAnArriveByPlanChoosingAnOptionArrivingAfterTheNextPinLeavesIsAConflict() throws {
        let harness = try harness
        let (id, options) = try planWithAPinnedWalkAfterTheRide("--arrive-by", "2022-01-12T08:30")
        XCTAssertFalse(options.isEmpty)
        XCTAssertTrue(options.allSatisfy { $0.arrival <= "2022-01-12T07:45:00+02:00" }, "all in time for the pin: \(options)")
        let (other, _) = try planWithAPinnedWalkAfterTheRide("--at", "2022-01-12T06:50")
        let listed = try harness.json(["plan", "alternatives", other, "1", "--count", "5"])["options"]?.arrayValue ?? []
        let late = try XCTUnwrap(listed.first { ($0["arrival"]?.stringValue ?? "") > "2022-01-12T07:45:00+02:00" }, "\(listed)")
        let trips = (late["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue }
        let before = try harness.json(["plan", "show", id])
        let refused = try harness.umctl(["plan", "choose", id, "1", "1", "--departure", try XCTUnwrap(late["departure"]?.stringValue)]
                                        + trips.flatMap { ["--trip", $0] })
        XCTAssertEqual(refused.status, 1, "\(late): \(refused.stdout)")
        XCTAssertTrue(refused.stderr.contains("pinned to leave at 07:45;") && refused.stderr.contains("nothing was changed"), refused.stderr)
        XCTAssertEqual(try harness.json(["plan", "show", id]), before, "nothing changed")
    }

    /// Trial 49 (left from issue 39 item 5): `plan alternatives` listed options that `plan
    /// choose` then refused for the pin after the segment, with nothing to tell them apart. The
    /// list names each such option ("pin_conflicts"; umctl says why and prints no choose line
    /// for it), and they are exactly the ones choose refuses: each option is chosen on its own
    /// copy of the plan.
    func testAlternativesNameExactlyTheOptionsChooseRefusesForAPin() throws {
        let harness = try harness
        let (plan, options) = try planWithAPinnedWalkAfterTheRide("--at", "2022-01-12T06:50")
        let listed = try harness.json(["plan", "alternatives", plan, "1", "--count", "5"])
        let refused = Set((listed["pin_conflicts"]?.arrayValue ?? []).compactMap { $0["option"]?.numberValue.map(Int.init) })
        XCTAssertFalse(refused.isEmpty, "an option arrives after the walk pinned at 07:45: \(options)")
        XCTAssertLessThan(refused.count, options.count, "an option arrives in time: \(options)")
        for option in options {
            let copy = try id(try harness.json(["plan", "copy", plan]))
            let chosen = try harness.umctl(["plan", "choose", copy, "1", String(option.number), "--count", "5"])
            XCTAssertEqual(chosen.status == 0, !refused.contains(option.number),
                           "option \(option.number) arriving \(option.arrival), listed as refused: \(refused): \(chosen.stderr)")
        }
        let text = try harness.umctl(["plan", "alternatives", plan, "1", "--count", "5"])
        for number in refused {
            XCTAssertTrue(text.stdout.contains("option \(number) arrives ") && text.stdout.contains("it cannot be chosen"), text.stdout)
            XCTAssertFalse(text.stdout.contains("umctl plan choose \(plan) 1 \(number) "), "no line takes a refused option: \(text.stdout)")
        }
    }

    /// Trial 56 finding 9: in an arrive-by plan, `plan alternatives` of the last ride listed
    /// options arriving 09:39, 09:48 and 09:49 after the 09:30 the plan must arrive by with no
    /// mark, and `plan choose` took one, then flagged it late. As an option that breaks a pin,
    /// each is named ("arrives_after_arrive_by"; umctl says why and prints no choose line for
    /// it), and exactly those are refused with `conflict`, changing nothing.
    /// The last segment is timed forward from a pin on the first (its options are the next
    /// departures, some arriving too late); timed back from the arrival, it lists only options
    /// arriving in time (`testInAnArriveByPlanTheOptionsAreThoseArrivingInTime`).
    func testInAnArriveByPlanOptionsArrivingAfterItsTimeAreNamedAndRefused() throws {
        let harness = try harness
        let new = try harness.json(["plan", "new", "Lielahti", "Koskikeskus", "TAYS", "--mode", "transit",
                                    "--arrive-by", "2022-01-12T09:30"])
        let plan = try id(new), last = String(segments(new).count)
        XCTAssertEqual(segments(new).first?["mode"], .string("transit"), "\(new)")
        let first = try XCTUnwrap(segments(new).first?["leg"]?["rides"]?.arrayValue?.first?["departure"]?.stringValue, "\(new)")
        let created = try harness.json(["plan", "pin", plan, "1", String(first.dropFirst(11).prefix(5))])
        XCTAssertEqual(segments(created).last?["mode"], .string("transit"), "\(created)")
        let listed = try harness.json(["plan", "alternatives", plan, last, "--count", "5"])
        let options = listed["options"]?.arrayValue ?? []
        let arrivals = options.map { $0["arrival"]?.stringValue ?? "" }
        let late = Set(arrivals.indices.filter { arrivals[$0] > "2022-01-12T09:30:01+02:00" }.map { $0 + 1 })
        XCTAssertFalse(late.isEmpty, "an option arrives after 09:30: \(arrivals)")
        XCTAssertLessThan(late.count, options.count, "an option arrives in time: \(arrivals)")
        let conflicts = listed["pin_conflicts"]?.arrayValue ?? []
        XCTAssertEqual(Set(conflicts.compactMap { $0["option"]?.numberValue.map(Int.init) }), late, "\(arrivals): \(conflicts)")
        XCTAssertTrue(conflicts.allSatisfy { $0["kind"] == .string("arrives_after_arrive_by") }, "\(conflicts)")

        let text = try harness.umctl(["plan", "alternatives", plan, last, "--count", "5"])
        for number in late {
            XCTAssertTrue(text.stdout.contains("option \(number) arrives ") && text.stdout.contains("after the 09:30 you must arrive by; it cannot be chosen"),
                          text.stdout)
            XCTAssertFalse(text.stdout.contains("umctl plan choose \(plan) \(last) \(number) "), "no line takes a late option: \(text.stdout)")
        }
        for number in 1...options.count {
            let copy = try id(try harness.json(["plan", "copy", plan]))
            let chosen = try harness.umctl(["plan", "choose", copy, last, String(number), "--count", "5"])
            XCTAssertEqual(chosen.status == 0, !late.contains(number), "option \(number) arriving \(arrivals[number - 1]): \(chosen.stderr)")
        }
        let before = try harness.json(["plan", "show", plan])
        let refused = try harness.umctl(["plan", "choose", plan, last, String(try XCTUnwrap(late.min())), "--count", "5"])
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("after the 09:30 it must arrive by; nothing was changed"), refused.stderr)
        XCTAssertEqual(try harness.json(["plan", "show", plan]), before, "nothing changed")
    }

    /// Trial 51: with the pin on segment 2 already given way (the pin on segment 1 made it
    /// missed), `plan alternatives ID 1` marked every option "too late for segment 2 … cannot be
    /// chosen", the plan's own bus 9 among them, printed an empty list of commands, and `plan
    /// choose` refused them all. A pin the plan already misses is no reason to refuse an option.
    func testAPinAlreadyMissedRefusesNoOptionOfTheSegmentBeforeIt() throws {
        let harness = try harness
        let (plan, pinned) = try planWhoseSecondPinIsMissed(harness)
        XCTAssertEqual(segments(pinned)[1]["missed_connection"], .bool(true), "the pin on segment 2 is missed: \(pinned)")
        let listed = try harness.json(["plan", "alternatives", plan, "1", "--count", "3"])
        XCTAssertEqual(listed["pin_conflicts"]?.arrayValue ?? [], [], "\(listed)")
        let chosen = try harness.umctl(["plan", "choose", plan, "1", "1", "--count", "3"])
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
    }

    func testAWalkOrCarListIsChosenByNumberWithTheCountItWasListedWith() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "car", "--at", Tampere.morning])
        let table = try harness.umctl(["plan", "alternatives", try id(created), "1", "--count", "2"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.hasSuffix("(umctl plan choose \(try id(created)) 1 N --count 2)\n"), table.stdout)
    }

    func testChooseRefusesADepartureThatIsNotATimeAndSendsNothing() throws {
        let refused = try harness.umctl(["plan", "choose", "1", "1", "1", "--departure", "soon"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--departure \"soon\" is not a time"), refused.stderr)
    }
}
