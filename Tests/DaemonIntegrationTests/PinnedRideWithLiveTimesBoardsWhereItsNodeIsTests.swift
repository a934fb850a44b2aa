import Foundation
import Transit
import WireProtocol
import XCTest

/// Session 60, F1, through the real daemon with a GTFS-Realtime feed served over HTTP on
/// 127.0.0.1: a pinned ride the feed knows (live times) kept boarding its own stop after `plan
/// move` chose the node before it again elsewhere. "Hämeenkatu 9" → Hervanta with bus 6 pinned
/// at Rautatieasema C at 09:38, the feed skipping that stop, the proposal (the same bus from
/// Koskipuisto D at 09:40) accepted, then `plan move … 1 Pyynikintori`: "09:40 Pyynikintori F
/// (inferred)" and "09:40 bus 6 … Koskipuisto D", 1.3 km apart in the same minute, no walk, no
/// "missed", no proposal. The ride starts at its node: walked to, and missed with a proposal
/// when the walk can't make it.
final class PinnedRideWithLiveTimesBoardsWhereItsNodeIsTests: LiveRegionTestCase {
    func rides(_ leg: JSONValue?) -> [JSONValue] { leg?["rides"]?.arrayValue ?? [] }

    /// Where transit `leg` starts: its walk to the first stop, else the stop its first ride boards.
    func start(of leg: JSONValue?) -> String? {
        let access = (leg?["walks"]?.arrayValue ?? []).first { $0["kind"] == .string("access") && ($0["distance_m"]?.numberValue ?? 0) > 0 }
        return access.map { $0["from"]?.stringValue } ?? rides(leg).first?["from"]?.stringValue
    }

    /// The plan of the finding with bus 6 pinned at Rautatieasema C at 09:38: its id and the ride.
    func pinnedBusSix() throws -> (id: String, ride: JSONValue) {
        let created = try harness.json(["plan", "new", "Hämeenkatu 9", "Hervanta", "--mode", "transit", "--at", "2022-01-12T09:35"])
        let id = try id(created)
        let pinned = try harness.json(["plan", "pin", id, "2", "09:38"])
        let ride = try XCTUnwrap(rides(segments(pinned)[1]["leg"]).first, "\(pinned)")
        guard ride["line"] == .string("6"), ride["from"] == .string("Rautatieasema C") else {
            throw HarnessError("bus 6 pinned at Rautatieasema C at 09:38: \(ride)")
        }
        return (id, ride)
    }

    /// After the move of the origin to Pyynikintori: segment 2 starts at node 2, and the bus,
    /// 1.3 km away from it, is missed with a proposal the traveller can catch.
    func assertBoardedFromItsNodeOrMissed(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let moved = try harness.json(["plan", "move", id, "1", "Pyynikintori"])
        let node = try XCTUnwrap(nodes(moved).dropFirst().first, "\(moved)", file: file, line: line)
        let segment = try XCTUnwrap(segments(moved).dropFirst().first, "\(moved)", file: file, line: line)
        XCTAssertEqual(start(of: segment["leg"]), node["name"]?.stringValue,
                       "the pinned ride starts where its node is, not a stop away in the same minute: \(node) \(segment)",
                       file: file, line: line)
        XCTAssertEqual(segment["missed_connection"], .bool(true), "the walk can't make the bus: \(segment)", file: file, line: line)
        let proposal = try XCTUnwrap(moved["pending"]?.arrayValue?.first?["latest"], "a proposal: \(moved)", file: file, line: line)
        let leaves = try XCTUnwrap(date(nodes(moved).first?["departure"] ?? nodes(moved).first?["time"]), file: file, line: line)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(date(rides(proposal).first?["departure"]), file: file, line: line), leaves,
                                    "\(proposal)", file: file, line: line)
    }

    func testAnAcceptedRideFromAStopTheFeedSkipsIsMissedAfterTheOriginMovesAway() throws {
        let pinned = try pinnedBusSix()
        let trip = try XCTUnwrap(pinned.ride["trip_id"]?.stringValue)
        let proposal = try live.skippingTheBoardingStop(of: pinned.ride, inPlan: pinned.id).proposal
        guard rides(proposal["latest"]).first?["trip_id"] == .string(trip) else {
            return XCTFail("the same bus proposed from its next stop: \(proposal)")
        }
        let accepted = try harness.umctl(["plan", "accept", pinned.id, "2"])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        try assertBoardedFromItsNodeOrMissed(pinned.id)
    }

    /// The same without the skip: any live times of the pinned trip kept it boarding its own stop.
    func testAPinnedRideOnTimeByTheFeedIsMissedAfterTheOriginMovesAway() throws {
        let pinned = try pinnedBusSix()
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, delay: 0)]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url]).status, 0)
        _ = try live.eventually("the pinned bus has live times") { () -> JSONValue? in
            let ride = rides(segments(try harness.json(["plan", "show", pinned.id]))[1]["leg"]).first
            return ride?["realtime"] == .bool(true) ? ride : nil
        }
        try assertBoardedFromItsNodeOrMissed(pinned.id)
    }
}
