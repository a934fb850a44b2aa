import Foundation
import Transit
import WireProtocol
import XCTest

/// Trial 61 F3, through the real daemon with a GTFS-Realtime feed served over HTTP on 127.0.0.1:
/// in a depart-at plan Keskustori → TAYS A at 08:30 with bus 6 at 08:36 pinned from Koskipuisto
/// C, the feed cancels the bus (or skips its stop) and bus 29 at 08:33:30 from Frenckell, 3 min
/// from Keskustori, is proposed. The plan, the agenda and the total kept the walk to the pinned
/// bus leaving 08:32 beside the proposal's arrival: leaving then misses bus 29. They are the
/// plan's as the traveller follows the proposal, as `plan accept` makes it.
final class CancelledPinTimedAsItsProposalTests: LiveRegionTestCase {
    static let start = "2022-01-12T08:30"

    /// The trial's plan with bus 6 pinned: its ID and the pinned ride.
    func pinnedBus6() throws -> (id: String, ride: JSONValue) {
        let created = try harness.json(["plan", "new", "Keskustori", "TAYS A", "--at", Self.start, "--mode", "transit"])
        let plan = try id(created)
        let pinned = try harness.umctl(["plan", "pin", plan, "2", "--line", "6"])
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        let shown = try harness.json(["plan", "show", plan])
        let ride = try XCTUnwrap(live.segmentRide(shown, 2), "\(shown)")
        XCTAssertEqual(ride["line"], .string("6"), "\(shown)")
        return (plan, ride)
    }

    /// Waits for the proposal on segment 2 of plan `id`.
    func proposal(_ id: String) throws -> JSONValue {
        try live.eventually("the pin that gave way gets a proposal") {
            try harness.json(["plan", "show", id])["pending"]?.arrayValue?.first { $0["latest"]?["rides"] != nil }?["latest"]
        }
    }

    /// The node before the proposal shows when it leaves, the end when it arrives, the start no
    /// earlier than the plan's and no later than the plan with the proposal accepted leaves (so
    /// the traveller leaving then catches it), the total spans the times shown, and the agenda
    /// says the same.
    func assertTimedAsTheProposal(_ id: String, _ proposed: JSONValue, file: StaticString = #filePath, line: UInt = #line) throws {
        let shown = try harness.json(["plan", "show", id])
        let nodes = try XCTUnwrap(shown["nodes"]?.arrayValue, "\(shown)", file: file, line: line)
        XCTAssertEqual(date(nodes[1]["time"]), date(proposed["departure"]), "the stop shows when the proposal leaves: \(shown)",
                       file: file, line: line)
        let end = try XCTUnwrap(date(nodes.last?["time"]), "\(shown)", file: file, line: line)
        XCTAssertEqual(end, date(proposed["arrival"]), "the end shows when the proposal arrives: \(shown)", file: file, line: line)
        let leaves = try XCTUnwrap(date(nodes.first?["time"]), "\(shown)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(leaves, try XCTUnwrap(WireTime.date(from: Self.start + ":00+02:00")), "\(shown)", file: file, line: line)
        XCTAssertEqual(shown["total_duration_s"]?.numberValue ?? 0, end.timeIntervalSince(leaves), accuracy: 1,
                       "the total spans the times shown: \(shown)", file: file, line: line)
        let agenda = try harness.json(["agenda"]).decode(as: AgendaDocument.self)
        let entry = try XCTUnwrap(agenda.plans.first { String($0.id) == id }, "\(agenda)", file: file, line: line)
        XCTAssertEqual(date(.string(entry.leave)), leaves, "the agenda leaves with the proposal: \(entry)", file: file, line: line)
        XCTAssertEqual(date(entry.arrival.map(JSONValue.string)), end, "\(entry)", file: file, line: line)

        let accepted = try harness.umctl(["plan", "accept", id, "2"])
        XCTAssertEqual(accepted.status, 0, accepted.stderr, file: file, line: line)
        let taken = try XCTUnwrap(try harness.json(["plan", "show", id])["nodes"]?.arrayValue, file: file, line: line)
        let takenLeaves = try XCTUnwrap(date(taken.first?["time"]), "\(taken)", file: file, line: line)
        XCTAssertLessThanOrEqual(leaves, takenLeaves.addingTimeInterval(1),
                                 "leaving when shown, the traveller is in time for the proposal taken: \(shown)\n\(taken)",
                                 file: file, line: line)
        XCTAssertEqual(date(taken.last?["time"]), end, "\(taken)", file: file, line: line)
    }

    func testACancelledPinnedBusIsTimedAsTheBusProposedFromTheStartToTheEnd() throws {
        let pinned = try pinnedBus6()
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, cancelled: true)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        try assertTimedAsTheProposal(pinned.id, try proposal(pinned.id))
    }

    func testAPinnedBusSkippingItsStopIsTimedAsTheBusProposedFromTheStartToTheEnd() throws {
        let pinned = try pinnedBus6()
        let proposed = try XCTUnwrap(try live.skippingTheBoardingStop(of: pinned.ride, inPlan: pinned.id).proposal["latest"])
        try assertTimedAsTheProposal(pinned.id, proposed)
    }
}
