import Foundation
import WireProtocol
import XCTest

/// Issue 39, "a proposal only while its pin gives way" (session 60's tester): a ride pinned after
/// a stay, with a walk from the stay's place to its stop, got a proposal at another pace although
/// the traveller still catches it. Asked again from when the walk at the new pace leaves, the
/// engine answers the ride it prefers from that time (the same bus without a change that saves
/// less than its transfer penalty; another line), not the pinned one; the pin still runs as
/// chosen from that place, so it holds, with no proposal (`pinnedRideStillRuns`).
final class PinCaughtAtANewPaceAfterAStayTests: SharedTampereDaemonTestCase {
    /// `plan new "Hämeenkatu 9" "Koskipuisto A" "Linnainmaa A" --at 08:57 --mode transit`, `plan
    /// stay ID 2 17m`, `plan pin ID 2 09:28` (bus 6 from Rautatieasema D, 213 m away, then bus 17
    /// at 09:44), `plan pace ID slow`: "bus 6 at 09:28 instead of bus 6 at 09:28" was proposed
    /// (the same bus without the change, arriving 09:47 instead of 09:45), and back at the normal
    /// pace a proposal of the pinned journey itself stayed.
    func testASlowerPaceAfterAStayKeepsThePinnedBusAndItsChange() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hämeenkatu 9", "Koskipuisto A", "Linnainmaa A", "--at", "2022-01-12T08:57",
                                        "--mode", "transit"])
        let plan = try id(created)
        guard nodes(created).count == 3, nodes(created)[1]["name"] == .string("Koskipuisto A") else {
            return XCTFail("Hämeenkatu 9 → Koskipuisto A → Linnainmaa A: \(created)")
        }
        _ = try harness.json(["plan", "stay", plan, "2", "17m"])
        let pinned = try harness.json(["plan", "pin", plan, "2", "09:28"])
        let trips = tripIDs(segments(pinned)[1])
        guard lines(segments(pinned)[1]) == ["6", "17"], accessWalkSeconds(segments(pinned)[1]) != nil else {
            return XCTFail("bus 6 at 09:28 after a walk, then bus 17: \(pinned)")
        }
        let walk = try XCTUnwrap(accessWalkSeconds(segments(pinned)[1]))
        let slow = try harness.json(["plan", "pace", plan, "slow"])
        XCTAssertEqual(slow["pending"]?.arrayValue ?? [], [], "nothing to propose for the buses still caught: \(slow)")
        XCTAssertEqual(tripIDs(segments(slow)[1]), trips, "the pinned buses, the change kept: \(slow)")
        XCTAssertNotEqual(segments(slow)[1]["missed_connection"], .bool(true), "\(slow)")
        let slowWalk = try XCTUnwrap(accessWalkSeconds(segments(slow)[1]), "\(slow)")
        XCTAssertGreaterThan(slowWalk, walk * 1.2, "the walk at the slow pace: \(slow)")
        let normal = try harness.json(["plan", "pace", plan, "normal"])
        XCTAssertEqual(normal["pending"]?.arrayValue ?? [], [], "\(normal)")
        XCTAssertEqual(tripIDs(segments(normal)[1]), trips, "\(normal)")
        XCTAssertEqual(try XCTUnwrap(accessWalkSeconds(segments(normal)[1]), "\(normal)"), walk, accuracy: 1, "\(normal)")
    }

    /// `plan new "Hämeenkatu 9" Hervanta "TAYS A" --at 08:40 --mode transit`, `plan stay ID 3
    /// 30m`, `plan pin ID 3 --line 6` (bus 6 at 10:04 from Opiskelija C, 166 m from Hervanta):
    /// slow proposed bus 38 at 09:55 ("line choice 6 replaced by bus 38" once accepted), fast
    /// bus 6 at 09:44, though nothing gave way. The pinned bus stays, and so does the line chosen.
    func testALinePinnedAfterAStayStaysThatBusAtEveryPace() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hämeenkatu 9", "Hervanta", "TAYS A", "--at", "2022-01-12T08:40",
                                        "--mode", "transit"])
        let plan = try id(created)
        guard let hervanta = nodes(created).firstIndex(where: { $0["name"] == .string("Hervanta") }),
              segments(created).indices.contains(hervanta) else { return XCTFail("a node at Hervanta: \(created)") }
        _ = try harness.json(["plan", "stay", plan, String(hervanta + 1), "30m"])
        let pinned = try harness.json(["plan", "pin", plan, String(hervanta + 1), "--line", "6"])
        let trips = tripIDs(segments(pinned)[hervanta])
        guard lines(segments(pinned)[hervanta]) == ["6"], accessWalkSeconds(segments(pinned)[hervanta]) != nil else {
            return XCTFail("bus 6 after a walk from Hervanta: \(pinned)")
        }
        for pace in ["slow", "fast", "normal"] {
            let paced = try harness.json(["plan", "pace", plan, pace])
            XCTAssertEqual(paced["pending"]?.arrayValue ?? [], [], "\(pace): nothing to propose for the bus still caught: \(paced)")
            XCTAssertEqual(tripIDs(segments(paced)[hervanta]), trips, "\(pace): the pinned bus 6: \(paced)")
            XCTAssertEqual(segments(paced)[hervanta]["chosen_lines"], .array([.string("6")]), "\(pace): the line chosen: \(paced)")
            XCTAssertNotEqual(segments(paced)[hervanta]["missed_connection"], .bool(true), "\(pace): \(paced)")
        }
    }

    private func tripIDs(_ segment: JSONValue) -> [String] {
        (segment["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue }
    }

    private func lines(_ segment: JSONValue) -> [String] {
        (segment["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["line"]?.stringValue }
    }

    /// Seconds of a transit segment's walk to its first stop (nil: none that long).
    private func accessWalkSeconds(_ segment: JSONValue) -> Double? {
        let walks = segment["leg"]?["walks"]?.arrayValue ?? []
        return walks.first { $0["kind"] == .string("access") && ($0["distance_m"]?.numberValue ?? 0) > 50 }?["duration_s"]?.numberValue
    }
}
