import Foundation
import TestSupport
import Transit
import WireProtocol
import XCTest

/// Trial 51's findings on what `plan show` says: a price counts only rides taken, a duration
/// says its waiting, a ride missed on foot invents no time for the walk after it, an edit's
/// mode note shows once. On Tampere, through the real daemon and umctl.
final class WhatPlanShowSaysIsTrueTests: SharedTampereDaemonTestCase {
    /// The segment lines of `plan show` (each "seg N: …" line), by segment number.
    private func segmentLines(_ shown: String) -> [Int: String] {
        var lines: [Int: String] = [:]
        for line in shown.split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces)
            guard words.hasPrefix("seg "), let colon = words.firstIndex(of: ":"),
                  let number = Int(words[words.index(words.startIndex, offsetBy: 4)..<colon].trimmingCharacters(in: .whitespaces))
            else { continue }
            lines[number] = words
        }
        return lines
    }

    /// Trial 51 finding 1: a plan whose pinned ride is missed (the start moved after it) showed
    /// 7.00 EUR with the proposal pending and 3.50 EUR once it was accepted: the missed 08:14 bus
    /// bought a ticket that ran out before the ride after the proposal. The traveller takes the
    /// proposal or nothing, never the missed ride: the plan costs what accepting it costs, and
    /// the total and the segment say the missed ride is priced as the one proposed.
    func testAPlanWithAMissedRideCostsWhatItsProposalCostsAndSaysSo() throws {
        let harness = try harness
        let (plan, missed) = try planWhoseFirstRideIsMissedByALaterStart(harness)
        let pinned = try XCTUnwrap(segments(missed).firstIndex { $0["missed_connection"] == .bool(true) }, "\(missed)")
        XCTAssertTrue((missed["pending"]?.arrayValue ?? []).contains { $0["segment"] == .number(Double(pinned + 1)) && $0["latest"] != nil },
                      "the missed pin has a ride proposed: \(missed["pending"] ?? .null)")
        let pendingPrice = try XCTUnwrap(missed["price"]?["amount"]?.numberValue, "\(missed)")
        XCTAssertTrue(missed["price_note"]?.stringValue?.contains("the missed ride on segment \(pinned + 1) priced as the one proposed") == true,
                      "the total says how the missed ride is priced: \(missed["price_note"] ?? .null)")
        XCTAssertTrue(segments(missed)[pinned]["leg"]?["price_note"]?.stringValue?.hasPrefix("the missed ride priced as the one proposed") == true,
                      "\(segments(missed)[pinned])")
        let total = try XCTUnwrap(try harness.umctl(["plan", "show", plan]).stdout.split(separator: "\n").first { $0.contains("total:") })
        XCTAssertTrue(total.contains("price \(String(format: "%.2f", pendingPrice)) EUR (the missed ride on segment \(pinned + 1) priced as the one proposed)"),
                      "\(total)")

        let accepted = try harness.json(["plan", "accept", plan, String(pinned + 1)])
        XCTAssertFalse(segments(accepted).contains { $0["missed_connection"] == .bool(true) }, "\(accepted)")
        XCTAssertEqual(pendingPrice, accepted["price"]?["amount"]?.numberValue,
                       "with the proposal pending the plan costs what accepting it costs: \(accepted["price"] ?? .null)")
        XCTAssertEqual(accepted["price_note"], .null, "nothing missed, nothing said: \(accepted)")
    }

    /// The arrive-by mirror: a pin that arrives too late is "late" (as umctl marks it), and two
    /// are named together. `plan new Lielahti Tampere-talo Nekalantie --arrive-by 10:30`,
    /// segment 2 pinned at 10:40, then segment 1 at 10:20: both are late, each with a proposal.
    func testAnArriveByPlanPricesEachLateRideAsItsProposalAndNamesThemTogether() throws {
        let harness = try harness
        let pinned = try planWithTwoLatePins(harness).plan
        let proposed = Set((pinned["pending"]?.arrayValue ?? []).filter { $0["latest"] != nil }.compactMap { $0["segment"]?.numberValue.map(Int.init) })
        let late = segments(pinned).indices.filter { segments(pinned)[$0]["missed_connection"] == .bool(true) && proposed.contains($0 + 1) }
        XCTAssertEqual(late.count, 2, "both pins late, each with a proposal: \(pinned)")
        let named = late.map { String($0 + 1) }.joined(separator: ", ")
        XCTAssertEqual(pinned["price_note"]?.stringValue, "the late rides on segments \(named) priced as the ones proposed",
                       "\(pinned["price"] ?? .null)")
        for index in late {
            XCTAssertTrue(segments(pinned)[index]["leg"]?["price_note"]?.stringValue?.hasPrefix("the late ride priced as the one proposed") == true,
                          "\(segments(pinned)[index])")
        }
    }

    /// A missed ride with no ride proposed (nothing left that morning, the traveller can only
    /// walk) is not priced, and the total says so, not a fare for a bus nobody takes.
    func testAMissedRideWithNothingToCatchIsNotPricedAndTheTotalSaysSo() throws {
        let harness = try harness
        let (plan, pinned) = try planWhoseSecondPinIsMissed(harness)
        let missed = try XCTUnwrap(segments(pinned).indices.first {
            segments(pinned)[$0]["missed_connection"] == .bool(true) && segments(pinned)[$0]["mode"] == .string("transit")
        }, "\(pinned)")
        XCTAssertTrue((pinned["pending"]?.arrayValue ?? []).contains { $0["segment"] == .number(Double(missed + 1)) && $0["no_catchable_ride"] != nil },
                      "\(pinned["pending"] ?? .null)")
        XCTAssertEqual(segments(pinned)[missed]["leg"]?["price_note"]?.stringValue, "ride missed: not priced", "\(segments(pinned)[missed])")
        XCTAssertTrue(pinned["price_note"]?.stringValue?.contains("ride missed on segment \(missed + 1): not priced") == true,
                      "\(pinned["price_note"] ?? .null)")
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertTrue(segmentLines(shown)[missed + 1]?.contains("ride missed: not priced") == true, shown)
    }

    /// Trial 51 finding 3: after a missed pin, a walk to the stop of the next ride read
    /// "walk 11 min, 166 m": a 2-minute walk and 9 minutes waiting for the ride. A walk's
    /// minutes are walking minutes; the wait after it is said as waiting, and the two add up to
    /// the span between the nodes' times.
    func testAWalksMinutesAreWalkingMinutesAndTheWaitAfterItIsShownAsWaiting() throws {
        let harness = try harness
        let (plan, _) = try planWhoseFirstRideIsMissedByALaterStart(harness)
        _ = try harness.json(["plan", "insert", plan, "Opiskelija C", "--after", "3", "--mode", "walk"])
        let document = try harness.json(["plan", "mode", plan, "4", "transit"])
        var waits = 0
        let shown = segmentLines(try harness.umctl(["plan", "show", plan]).stdout)
        for (index, segment) in segments(document).enumerated() where segment["mode"] == .string("walk") {
            guard let leg = segment["leg"], let start = date(leg["departure"]), let end = date(leg["arrival"]),
                  let seconds = leg["duration_s"]?.numberValue else { continue }
            let from = start.timeIntervalSince1970, walked = from + seconds, to = end.timeIntervalSince1970
            let line = try XCTUnwrap(shown[index + 1], "\(shown)")
            if ShownTime.minutes(from: walked, to: to) > 0 {
                waits += 1
                let distance = Int(try XCTUnwrap(leg["distance_m"]?.numberValue).rounded())
                XCTAssertTrue(line.contains("walk    \(ShownTime.text(from: from, to: walked)), \(distance) m, then wait \(ShownTime.text(from: walked, to: to))"),
                              "walking minutes, then the wait: \(line)")
            } else {
                XCTAssertFalse(line.contains("then wait"), line)
            }
        }
        XCTAssertGreaterThan(waits, 0, "the walk to Opiskelija C waits for the ride after it: \(document)")
    }

    /// Trial 51 finding 2: after a ride missed on foot (bus 14 at 11:37, the walk gets the
    /// traveller there at 12:01), the walk from its stop showed 11:47, the missed ride's
    /// arrival, before the traveller can be there. No time is invented for it. (Pinned by the
    /// minute its ride leaves, the ride's stop is its node, trial 55: the walk from it is then the
    /// next segment, and that node shows no time of the missed ride either.)
    func testTheWalkAfterARideMissedOnFootShowsNoTimeOfTheMissedRide() throws {
        let harness = try harness
        let (plan, pinned) = try planWhoseSecondPinIsMissed(harness)
        let missed = try XCTUnwrap(segments(pinned).indices.first { segments(pinned)[$0]["reached"] != nil }, "missed on foot: \(pinned)")
        let leg = try XCTUnwrap(segments(pinned)[missed]["leg"])
        let alights = try XCTUnwrap(leg["rides"]?.arrayValue?.last?["arrival"]?.stringValue, "\(leg)")
        let missedClock = String(alights.dropFirst(11).prefix(5))
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        guard let egress = leg["walks"]?.arrayValue?.last(where: { $0["kind"] == .string("egress") }) else {
            let stop = try XCTUnwrap(nodes(pinned)[missed + 1]["name"]?.stringValue, "\(pinned)")
            XCTAssertEqual(leg["rides"]?.arrayValue?.last?["to"]?.stringValue, stop, "the ride's stop is the node: \(pinned)")
            let node = try XCTUnwrap(shown.split(separator: "\n").first { $0.hasPrefix("  \(missed + 2). ") }, shown)
            XCTAssertFalse(node.contains(missedClock), "the missed ride's \(missedClock): \(node)")
            return
        }
        let from = try XCTUnwrap(egress["from"]?.stringValue), to = try XCTUnwrap(egress["to"]?.stringValue)
        let walk = try XCTUnwrap(shown.split(separator: "\n").first { $0.contains("walk ") && $0.contains("\(from) → \(to)") }, shown)
        XCTAssertTrue(walk.trimmingCharacters(in: .whitespaces).hasPrefix("--:--  walk "), "no time of the missed ride: \(walk)")
        XCTAssertFalse(walk.contains(missedClock), "the missed ride's \(missedClock): \(walk)")
    }

    /// Trial 51 finding 3: an edit's answer listed each segment's `mode:` note twice, in the
    /// header ("segment 1 by transit: …") and under the segment. Once, under the segment.
    func testAnEditsModeNoteShowsOnceUnderItsSegment() throws {
        let harness = try harness
        // Two plans alike: one edited for its JSON answer, the other for umctl's words.
        func created() throws -> String {
            try id(try harness.json(["plan", "new", "Keskustori", "Hervanta", "--mode", "transit", "--at", "2022-01-12T08:00"]))
        }
        let inserted = try harness.json(["plan", "insert", try created(), "Kauppiaankatu", "--after", "1"])
        let notes = inserted["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertFalse(notes.isEmpty, "the insert says why its segments have their modes: \(inserted)")
        let answer = try harness.umctl(["plan", "insert", try created(), "Kauppiaankatu", "--after", "1"])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        for note in segments(inserted).compactMap({ $0["mode_note"]?.stringValue }) {
            XCTAssertEqual(answer.stdout.components(separatedBy: note).count - 1, 1, "\"\(note)\" once: \(answer.stdout)")
        }
    }
}

/// The price rule for a ride a realtime feed cancels: nobody takes it either, so the plan is
/// priced as the ride proposed instead, and says so (a GTFS-Realtime feed served over HTTP on
/// 127.0.0.1, as in ProposalRuleTests).
final class CancelledRidePriceTests: LiveRegionTestCase {
    func testAPlanWithACancelledRideIsPricedAsItsProposalAndSaysSo() throws {
        let pinned = try live.pinnedPlan()
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, cancelled: true)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        let plan = try live.eventually("the cancelled ride gets a proposal") { () throws -> JSONValue? in
            let shown = try harness.json(["plan", "show", pinned.id])
            return shown["pending"]?.arrayValue?.first?["latest"] == nil ? nil : shown
        }
        let segment = plan["segments"]?.arrayValue?[pinned.segment - 1]
        XCTAssertTrue(segment?["leg"]?["rides"]?.arrayValue?.contains { $0["cancelled"] == .bool(true) } == true, "\(plan)")
        XCTAssertTrue(segment?["leg"]?["price_note"]?.stringValue?.hasPrefix("the cancelled ride priced as the one proposed") == true,
                      "\(segment ?? .null)")
        XCTAssertTrue(plan["price_note"]?.stringValue?.contains("the cancelled ride on segment \(pinned.segment) priced as the one proposed") == true,
                      "\(plan["price_note"] ?? .null)")
        let priced = try XCTUnwrap(plan["price"]?["amount"]?.numberValue, "\(plan)")
        let accepted = try harness.json(["plan", "accept", pinned.id, String(pinned.segment)])
        XCTAssertEqual(accepted["price"]?["amount"]?.numberValue, priced, "accepting the proposal costs what was shown: \(accepted)")
    }

    /// Trial 52 finding 7: a missed pin's pending line read "selected leaves 08:14 … → latest
    /// leaves 09:34 …" right after "the next one you can catch is pending below": "latest" was the
    /// newest timetable's word, read as "the latest departure". The line names the proposal.
    func testAMissedPinsPendingLineNamesTheProposalNotTheLatest() throws {
        let harness = harness
        let (plan, _) = try planWhoseFirstRideIsMissedByALaterStart(harness)
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        let pending = try XCTUnwrap(shown.split(separator: "\n").first { $0.contains("pending on segment") }, shown)
        // The proposal is named by its ride, leaving when the ride does ("→ proposed bus 6 leaves 08:20").
        XCTAssertNotNil(pending.range(of: #" → proposed \S+ \S+ leaves "#, options: .regularExpression), "\(pending)")
        XCTAssertFalse(pending.contains("latest"), "\(pending)")
    }
}
