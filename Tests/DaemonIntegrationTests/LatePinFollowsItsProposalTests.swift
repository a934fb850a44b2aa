import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 2 in an arrive-by plan (session 52): a pin that makes the arrival late gets a
/// proposal, and the plan is timed as the traveller follows it, as a depart-at plan is after a
/// missed pin's proposal.
final class LatePinFollowsItsProposalTests: SharedTampereDaemonTestCase {
    /// `plan new Keskustori Hervanta TAYS --mode transit --arrive-by 10:00`, then `plan pin ID 2
    /// 09:40` (bus 6, at Hervanta 10:03). The ride after it, asked from the pinned bus, arrived
    /// 10:34, and TAYS showed `--:--`. Following the pin's proposal (bus 6 at 09:02), the ride
    /// after it is the one that arrives by 10:00, every node shows a time, in order, the nodes
    /// before the pin when to leave for the proposal, and the pinned ride keeps its own times.
    func testAnArriveByPlanWithALatePinTimesEveryNodeFromThePinsProposal() throws {
        let harness = try harness
        let (plan, created) = try planToTAYSArrivingBy10(harness)
        let ride = try XCTUnwrap(transitSegments(created).first, "\(created)")
        let pinned = try harness.json(["plan", "pin", plan, String(ride + 1), "09:40"])
        let nodes = nodes(pinned), segments = segments(pinned)
        XCTAssertEqual(segments[ride]["missed_connection"], .bool(true), "the pin makes the arrival late: \(segments[ride])")
        let proposal = try XCTUnwrap((pinned["pending"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(ride + 1)) }?["latest"],
                                     "a proposal for the pin: \(pinned["pending"] ?? .null)")
        let proposalLeaves = try XCTUnwrap(date(proposal["departure"]), "\(proposal)")
        let proposalArrives = try XCTUnwrap(date(proposal["arrival"]), "\(proposal)")
        let times = nodes.map { date($0["time"]) }
        XCTAssertFalse(times.contains(nil), "every node shows a time: \(nodes)")
        let shown = times.compactMap { $0 }
        XCTAssertEqual(shown, shown.sorted(), "node times in order: \(nodes)")
        let deadline = try XCTUnwrap(ISO8601DateFormatter().date(from: "2022-01-12T10:00:00+02:00"))
        XCTAssertLessThanOrEqual(try XCTUnwrap(shown.last), deadline.addingTimeInterval(1), "the destination in time: \(nodes)")
        // The pin's start is left for its proposal, and its end is where the proposal gets to.
        let leaving = try XCTUnwrap(times[ride], "\(nodes)")
        XCTAssertLessThanOrEqual(leaving, proposalLeaves.addingTimeInterval(1), "the pin's node is reached for its proposal: \(nodes)")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(times[ride + 1]), proposalArrives.addingTimeInterval(-1),
                                    "the node after the pin after its proposal arrives: \(nodes)")
        // Every leg after the pin leaves after the traveller gets to its start, and none is late.
        for index in (ride + 1)..<segments.count {
            XCTAssertNotEqual(segments[index]["missed_connection"], .bool(true), "segment \(index + 1) after the pin: \(segments[index])")
            if let leaves = date(segments[index]["leg"]?["departure"]), let there = times[index] {
                XCTAssertGreaterThanOrEqual(leaves, there.addingTimeInterval(-1), "segment \(index + 1) leaves before its node: \(pinned)")
            }
        }
        // The pinned ride keeps its own times (09:40).
        let pinLeaves = try XCTUnwrap(date(segments[ride]["leg"]?["departure"]), "\(segments[ride])")
        XCTAssertGreaterThan(pinLeaves, proposalLeaves, "the pinned leg keeps its time: \(segments[ride])")
        let text = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertFalse(text.contains("--:--"), "plan show shows every node's time: \(text)")
        // The times shown are the plan the traveller gets by accepting the proposal.
        let accepted = try harness.json(["plan", "accept", plan, String(ride + 1)])
        XCTAssertEqual(self.nodes(accepted).map { date($0["time"]) }, times, "accepted: \(accepted)")
    }
    /// `plan new Lielahti Tampere-talo Nekalantie --mode transit --arrive-by 11:00`, then `plan
    /// pin ID 2 11:05` (bus 10 at 11:05, arriving 11:10: late; proposed, bus 2 leaving 10:42).
    /// The ride before the pin stayed timed to the pin (arriving 10:51) and was flagged "late:
    /// it arrives 10:51:30 but you must be at Tampere-talo by 10:51:30, 0 s too late", priced as
    /// "not priced", and the nodes after the pin showed `--:--`. Following the proposal, the ride
    /// before it is the one that makes it: only the pin is late, and every node shows its time.
    func testTheRideBeforeALatePinIsTheOneThatMakesItsProposal() throws {
        let harness = try harness
        let created = try lielahtiTampereTaloNekalantie(harness, mode: "transit", "--arrive-by", "11:00")
        let plan = try id(created)
        let rides = transitSegments(created)
        XCTAssertEqual(Array(rides.prefix(2)), [0, 1], "two rides: \(created)")
        // Bus 10 leaving at 11:05 (a pin's time is its ride's; 10:50 is now a later ride of the
        // journey the plan shows, which is pinned as it is).
        let pinned = try harness.json(["plan", "pin", plan, "2", "11:05"])
        let segments = segments(pinned)
        XCTAssertEqual(segments[1]["missed_connection"], .bool(true), "the pin makes the arrival late: \(segments[1])")
        XCTAssertNotEqual(segments[0]["missed_connection"], .bool(true), "the ride before the pin is not late: \(segments[0])")
        let proposal = try XCTUnwrap((pinned["pending"]?.arrayValue ?? []).first { $0["segment"] == .number(2) }?["latest"],
                                     "a proposal for the pin: \(pinned["pending"] ?? .null)")
        let proposalLeaves = try XCTUnwrap(date(proposal["departure"]), "\(proposal)")
        let arrives = try XCTUnwrap(date(segments[0]["leg"]?["arrival"]), "\(segments[0])")
        XCTAssertLessThanOrEqual(arrives, proposalLeaves.addingTimeInterval(1), "the ride before makes the proposal: \(pinned)")
        let times = nodes(pinned).map { date($0["time"]) }
        XCTAssertFalse(times.contains(nil), "every node shows a time: \(nodes(pinned))")
        let text = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertFalse(text.contains("0 s too late"), "no connection late by nothing: \(text)")
        XCTAssertFalse(text.contains("not priced"), "every ride taken is priced: \(text)")
    }
}
