import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 3 (trial 55 finding 3): a plan an edit leaves can be followed as shown. No walk
/// is shown shorter than its length allows, no inferred stop is walked to that the ride after it
/// does not board at, and times never run backward along the chain: a leg that cannot fit is
/// marked late (or missed) and says so (docs/planner.md).
final class PlansYouCanFollowAfterEditsTests: SharedTampereDaemonTestCase {
    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness(regionsFrom: try TampereRegion.dataDirectory())
        try harness.start(extraArguments: ["--clock-start", "2022-01-12T07:30:00+02:00"])
        return harness
    }

    /// Every rule above, on the plan as `--json` shows it.
    func assertFollowable(_ plan: JSONValue, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let all = segments(plan), stops = nodes(plan)
        for (index, segment) in all.enumerated() {
            guard let leg = segment["leg"], leg != .null else { continue }
            let late = segment["missed_connection"] == .bool(true)
            // No walk faster than 3 m/s: "walk 0 min Vapriikki → Frenckell (267 m)" was a bus missed.
            for walk in leg["walks"]?.arrayValue ?? [] {
                let metres = walk["distance_m"]?.numberValue ?? 0, seconds = walk["duration_s"]?.numberValue ?? 0
                XCTAssertGreaterThanOrEqual(seconds, metres / 3 - 1, "segment \(index + 1): \(walk) in \(context)", file: file, line: line)
            }
            // A street leg is shown its own time: its span holds its walk (or drive).
            if leg["rides"]?.arrayValue?.isEmpty != false, let from = date(leg["departure"]), let to = date(leg["arrival"]),
               let seconds = leg["duration_s"]?.numberValue {
                XCTAssertGreaterThanOrEqual(to.timeIntervalSince(from), seconds - 60,
                                            "segment \(index + 1) shown shorter than it takes: \(leg) in \(context)", file: file, line: line)
            }
            // The ride boards at the inferred stop walked to.
            if index > 0, stops[index]["inferred"] == .bool(true), all[index - 1]["mode"] == .string("walk"),
               let ride = leg["rides"]?.arrayValue?.first {
                XCTAssertEqual(ride["from"], stops[index]["name"], "segment \(index + 1) walked to a stop its ride does not use: \(context)",
                               file: file, line: line)
            }
            // Times run forward: the next node is not reached before this one is left, unless this leg is late.
            let left = date(stops[index]["departure"]) ?? date(stops[index]["time"])
            if !late, let left, let reached = date(stops[index + 1]["time"]) {
                XCTAssertGreaterThanOrEqual(reached.timeIntervalSince(left), -60,
                                            "node \(index + 2) reached before node \(index + 1) is left, segment \(index + 1) not late: \(context)",
                                            file: file, line: line)
            }
        }
    }

    /// Finding 3a: while a missed pin's proposal is pending, the ride after it was asked again
    /// from the traveller's place but kept the inferred stop asked for: a 493 m walk to
    /// Vapriikki, then "walk 0 min Vapriikki → Frenckell (267 m)" to bus 29 the traveller would
    /// miss. The ride's stops are the ones it uses, as everywhere else.
    func testARideAfterAMissedPinsProposalBoardsWhereTheWalkGoes() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "61.47895,23.83297", "Keskustori", "TAYS", "Koskikeskus",
                                        "--mode", "transit", "--arrive-by", "2022-01-12T09:49"])
        let id = try id(created)
        _ = try harness.json(["plan", "pin", id, "1", "07:46"])
        let retimed = try harness.json(["plan", "time", id, "--at", "2022-01-12T08:32"])
        XCTAssertNotEqual(retimed["pending"]?.arrayValue?.count ?? 0, 0, "the missed pin's proposal is pending: \(retimed)")
        assertFollowable(retimed, "after plan time --at 08:32")
    }

    /// Finding 3b: node 3 left at 09:24 (a stay "until" past the plan's arrival by 09:19), node 4
    /// reached at 08:54, and the walk between shown "walk 0 min, 371 m", not late, because a late
    /// pin before it was the only leg marked. The walk is late and arrives its own time after the stay.
    func testAWalkLeavingAStayPastTheArrivalIsLateBesideALatePin() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Rautatieasema", "Hervanta", "61.50012,23.76728", "Tampere-talo",
                                        "--mode", "transit", "--arrive-by", "2022-01-12T09:19"])
        let id = try id(created)
        var plan = created
        for edit in [["stay", id, "3", "--until", "09:24"], ["pin", id, "2", "07:36"], ["unpin", id], ["choose", id, "1", "1"],
                     ["insert", id, "61.49254,23.77639", "--after", "4"]] {
            plan = try harness.json(["plan"] + edit)
            assertFollowable(plan, "plan \(edit.joined(separator: " "))")
        }
        let stay = try XCTUnwrap(nodes(plan).firstIndex { $0["stay_until"] != nil }, "\(plan)")
        XCTAssertEqual(segments(plan)[stay]["missed_as"], .string("late"), "the walk after the stay is late: \(segments(plan)[stay])")
    }
}
