import Foundation
import WireProtocol
import XCTest

/// Edits that compose (issue 28, "Edits compose"), on Tampere through the real daemon and umctl:
/// what one edit decided survives the next one.
final class EditsComposeTests: SharedTampereDaemonTestCase {
    static let morning = WireTime.date(from: "2022-01-12T08:00:00+02:00")!

    /// A transit plan from Keskustori to Hervanta at 08:00, and its ID.
    func morningBusToHervanta(_ harness: DaemonHarness) throws -> (plan: JSONValue, id: String) {
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        return (created, try id(created))
    }

    func pinnedSegment(_ plan: JSONValue) -> Int? { plan["pinned_segment"]?.numberValue.map(Int.init) }

    func pendingSegments(_ plan: JSONValue) -> [Int] {
        (plan["pending"]?.arrayValue ?? []).compactMap { $0["segment"]?.numberValue.map(Int.init) }
    }

    // MARK: - Item 11: a dismissed proposal stays dismissed

    func testADismissedProposalIsNotProposedAgainByTheRecomputeThatFollows() throws {
        let harness = try harness
        let (created, id) = try morningBusToHervanta(harness)
        let transit = try XCTUnwrap(transitSegments(created).first) + 1
        _ = try harness.json(["plan", "pin", id, String(transit), "08:10"])
        // A long detour on foot before the pinned bus: it is missed and a later one proposed.
        let detour = try harness.json(["plan", "insert", id, "--after", "1", Tampere.pyynikki, "--mode", "walk"])
        let pinned = try XCTUnwrap(pinnedSegment(detour), "\(detour)")
        XCTAssertEqual(pendingSegments(detour), [pinned], "a catchable departure is proposed: \(detour)")
        let dismissed = try harness.json(["plan", "dismiss", id, String(pinned)])
        XCTAssertEqual(pendingSegments(dismissed), [], "dismissed stays dismissed: \(dismissed)")
        XCTAssertEqual(segments(dismissed)[pinned - 1]["missed_connection"], .bool(true), "the pin is still missed")
        let shown = try harness.json(["plan", "show", id])
        XCTAssertEqual(pendingSegments(shown), [])
        // Renaming changes no leg: still dismissed.
        let renamed = try harness.json(["plan", "rename", id, "Day out"])
        XCTAssertEqual(pendingSegments(renamed), [])
    }
}

extension EditsComposeTests {
    // MARK: - Item 14: pins never vanish without a word

    func testPlanTimeKeepsThePin() throws {
        let harness = try harness
        let (created, id) = try morningBusToHervanta(harness)
        let transit = try XCTUnwrap(transitSegments(created).first) + 1
        let pinned = try harness.json(["plan", "pin", id, String(transit), "08:10"])
        let departure = try XCTUnwrap(date(segments(pinned)[transit - 1]["leg"]?["departure"]))
        let retimed = try harness.json(["plan", "time", id, "--at", "07:30"])
        XCTAssertEqual(pinnedSegment(retimed), transit, "the pin stays: \(retimed)")
        XCTAssertEqual(date(segments(retimed)[transit - 1]["leg"]?["departure"]), departure)
        XCTAssertNil(retimed["removed_pins"], "nothing was removed")
    }

    func testAnEditThatRemovesThePinSaysSoInItsAnswer() throws {
        let harness = try harness
        let (created, id) = try morningBusToHervanta(harness)
        let transit = try XCTUnwrap(transitSegments(created).first) + 1
        _ = try harness.json(["plan", "pin", id, String(transit), "08:10"])
        let walked = try harness.json(["plan", "mode", id, String(transit), "walk"])
        XCTAssertNil(pinnedSegment(walked))
        let removed = try XCTUnwrap(walked["removed_pins"]?.arrayValue, "the answer says the pin went: \(walked)")
        XCTAssertEqual(removed.count, 1)
        XCTAssertNotNil(removed.first?["departure"]?.stringValue)
        let shown = try harness.umctl(["plan", "mode", id, String(transit), "transit"])
        XCTAssertFalse(shown.stdout.contains("pin removed"), "no pin left to remove: \(shown.stdout)")
    }
}

extension EditsComposeTests {
    // MARK: - Item 16: "don't go via there" is kept

    func testRemovingAnInferredStopMakesTheTransitLegAvoidIt() throws {
        let harness = try harness
        let (created, id) = try morningBusToHervanta(harness)
        // The stop the bus is left at, next to Hervanta: the one a journey there would use again.
        let transit = try XCTUnwrap(transitSegments(created).last)
        let alighting = nodes(created)[transit + 1]
        XCTAssertEqual(alighting["inferred"], .bool(true), "\(created)")
        let stop = try XCTUnwrap(alighting["name"]?.stringValue)
        let removed = try harness.json(["plan", "remove", id, String(transit + 2)])
        let calls = segments(removed).flatMap { segment in
            (segment["leg"]?["rides"]?.arrayValue ?? []).flatMap { [$0["from"], $0["to"]] }
        }
        XCTAssertFalse(calls.isEmpty, "still a transit journey: \(removed)")
        XCTAssertFalse(calls.contains(.string(stop)), "the removed stop \(stop) is not boarded again: \(removed)")
        XCTAssertFalse(nodes(removed).contains { $0["name"] == .string(stop) }, "nor put back as a node")
    }
}

extension EditsComposeTests {
    // MARK: - Item 15: leave-now links carry the plan's times

    func testALeaveNowWalkPlansLinkCarriesTheTimePlanShowShows() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "walk"])
        let id = try id(created)
        XCTAssertNotNil(nodes(created).first?["time"]?.stringValue, "plan show times a leave-now walk: \(created)")
        let link = try harness.json(["plan", "link", id, "1"])
        XCTAssertEqual(link["form"], .string("timed"), "the link leaves when the plan does: \(link)")
    }
}

extension EditsComposeTests {
    // MARK: - One pin per segment

    func testChooseOnOneSegmentKeepsAnotherSegmentsPin() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "Keskustori", "--mode", "transit",
                                        "--at", Tampere.morning])
        let id = try id(created)
        let transit = transitSegments(created)
        XCTAssertGreaterThanOrEqual(transit.count, 2, "out and back by bus: \(created)")
        let out = transit[0] + 1, back = try XCTUnwrap(transit.last) + 1
        let pinned = try harness.json(["plan", "pin", id, String(out), "08:10"])
        let chosen = try harness.json(["plan", "choose", id, String(back), "2"])
        XCTAssertEqual(nodes(chosen).first?["time"], nodes(pinned).first?["time"],
                       "leaving home still fits the morning pin, not the evening choice")
        XCTAssertEqual(chosen["pinned_segments"], .array([.number(Double(out)), .number(Double(back))]),
                       "the morning pin stays beside the chosen return: \(chosen)")
        XCTAssertNil(chosen["removed_pins"], "no pin went")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.stdout.components(separatedBy: "pinned").count - 1 >= 2, true, shown.stdout)
    }
}

extension EditsComposeTests {
    // MARK: - Item 13: presets rebuild each stretch

    func testTheTransitPresetOnATransitPlanKeepsWalkTransitWalkAndEveryLeg() throws {
        let harness = try harness
        let (created, _) = try morningBusToHervanta(harness)
        let modes = segments(created).map(\.["mode"])
        let preset = try harness.json(["plan", "preset", try id(created), "transit"])
        XCTAssertEqual(segments(preset).map(\.["mode"]), modes, "not one transit segment per old segment: \(preset)")
        XCTAssertNotNil(preset["total_duration_s"]?.numberValue, "every leg found: \(preset)")
    }

    func testTheTransitPresetOnACarPlanWalksToTheStops() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "--mode", "car", "--at", Tampere.morning])
        let preset = try harness.json(["plan", "preset", try id(created), "transit"])
        XCTAssertEqual(segments(preset).first?["mode"], .string("walk"), "\(preset)")
        XCTAssertTrue(segments(preset).contains { $0["mode"] == .string("transit") })
        XCTAssertNotNil(preset["total_duration_s"]?.numberValue, "every leg found: \(preset)")
    }

    // MARK: - Item 12: a stay "until" does not hide the start

    func testAStayUntilBeforeAPinnedLaterBusKeepsTheStart() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "Keskustori", "--mode", "transit",
                                        "--at", "2022-01-12T07:30"])
        let id = try id(created)
        let hervanta = try XCTUnwrap(nodes(created).firstIndex { typed($0) == Tampere.hervanta }) + 1
        _ = try harness.json(["plan", "stay", id, String(hervanta), "--until", "09:30"])
        let back = try XCTUnwrap(transitSegments(created).last) + 1
        let pinned = try harness.json(["plan", "pin", id, String(back), "09:45"])
        let first = try XCTUnwrap(transitSegments(pinned).first)
        let leaves = try XCTUnwrap(date(segments(pinned)[first]["leg"]?["departure"]), "\(pinned)")
        XCTAssertLessThan(leaves, WireTime.date(from: "2022-01-12T08:30:00+02:00")!,
                          "the morning bus leaves after the 07:30 start, not just before 09:30: \(pinned)")
        let start = try XCTUnwrap(date(nodes(pinned).first?["time"]))
        XCTAssertGreaterThanOrEqual(start, WireTime.date(from: "2022-01-12T07:30:00+02:00")!, "never before the start asked")
        XCTAssertLessThanOrEqual(start, leaves, "and no later than the first bus needs")
        XCTAssertTrue(segments(pinned).allSatisfy { $0["missed_connection"] == .bool(false) }, "\(pinned)")
    }
}

extension EditsComposeTests {
    // MARK: - Item 10: refine never splits one ride in two

    func testRefineNeverSplitsARideIntoTwoHalvesOfTheSameTrip() throws {
        let harness = try harness
        // Trips whose long ride the real engine boards again at a stop half way (found on the old rule).
        let trips = [(Tampere.hervanta, "61.4600,23.7800"), ("61.4700,23.9000", Tampere.ratina),
                     ("61.4700,23.9000", Tampere.railwayStation), (Tampere.ratina, "61.4800,23.7000")]
        for (from, to) in trips {
            let created = try harness.json(["plan", "new", from, to, "--mode", "transit", "--at", Tampere.morning])
            let refined = try harness.json(["plan", "refine", try id(created)])
            let legs = segments(refined)
            for index in legs.indices.dropLast() where legs[index]["mode"] == .string("transit")
                && legs[index + 1]["mode"] == .string("transit") {
                let arriving = legs[index]["leg"]?["rides"]?.arrayValue?.last?["trip_id"]
                let leaving = legs[index + 1]["leg"]?["rides"]?.arrayValue?.first?["trip_id"]
                XCTAssertNotEqual(arriving, leaving, "\(from) → \(to): one trip split at node \(index + 2): \(refined)")
            }
        }
    }
}

extension EditsComposeTests {
    // MARK: - Item 14: a chosen route is kept

    func testAChosenCarRouteIsKeptWhenThePlansTimeChanges() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "car", "--at", Tampere.morning])
        let id = try id(created)
        let options = try harness.json(["plan", "alternatives", id, "1"])["options"]?.arrayValue ?? []
        XCTAssertEqual(options.count, 2, "the quickest and the shortest route: \(options)")
        let shortest = try XCTUnwrap(options.last?["distance_m"]?.numberValue)
        let chosen = try harness.json(["plan", "choose", id, "1", "2"])
        XCTAssertEqual(segments(chosen).first?["leg"]?["distance_m"]?.numberValue, shortest)
        let retimed = try harness.json(["plan", "time", id, "--at", "09:30"])
        XCTAssertEqual(segments(retimed).first?["leg"]?["distance_m"]?.numberValue, shortest,
                       "the chosen route, not the quickest again: \(retimed)")
    }

    func testTheHeaderShowsAWalkPinsPinnedTimeEvenWhenItsLegCannotLeaveThen() throws {
        let harness = try harness
        // Pyynikki → Keskustori is a walk of about 20 min: leaving Keskustori at 08:05 cannot be made.
        // Pinned while the plan starts at 07:30 (a pin the traveller cannot make from the start
        // is refused), then the start moved to 08:00.
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.keskustori, Tampere.tampereTalo, "--mode", "walk",
                                        "--at", "2022-01-12T07:30"])
        let id = try id(created)
        _ = try harness.json(["plan", "pin", id, "2", "08:05"])
        let pinned = try harness.json(["plan", "time", id, "--at", Tampere.morning])
        XCTAssertEqual(pinned["pins"], .array([.object(["segment": .number(2), "departure": .string("2022-01-12T08:05:00+02:00")])]),
                       "\(pinned)")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("seg 2 pinned to leave 08:05"), "the pinned time, not the leg's: \(shown.stdout) \(pinned)")
    }
}
