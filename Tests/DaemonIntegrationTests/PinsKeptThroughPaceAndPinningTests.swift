import Foundation
import WireProtocol
import XCTest

/// Issue 39 (session 57's tester): `plan pace` proposed a worse ride for a pin the traveller
/// could still catch, and pinning the ride the plan already showed changed the legs before it.
final class PinsKeptThroughPaceAndPinningTests: SharedTampereDaemonTestCase {
    /// `plan new Keskustori TAYS Kaleva Lielahti --mode transit --at 08:00`, `plan pin ID 4 08:41`
    /// (bus 9 from Tarkonpuisto, 404 m from Kaleva A), `plan pace ID slow`: the plan proposed bus
    /// 19 at 08:48 (arriving 09:09 instead of 09:03) and kept the normal-pace walk (290 s),
    /// although a slow walk still reaches the 08:41. The pin stays, with its walk at the new
    /// pace, and nothing is proposed.
    func testASlowerPaceKeepsAPinnedRideTheTravellerStillCatches() throws {
        let harness = try harness
        let (plan, index, pinned) = try kalevaLielahtiPinned(harness)
        let ride = try XCTUnwrap(segments(pinned)[index]["leg"]?["rides"]?.arrayValue?.first, "\(pinned)")
        let walk = try XCTUnwrap(accessWalkSeconds(segments(pinned)[index]), "\(pinned)")
        let slow = try harness.json(["plan", "pace", plan, "slow"])
        let leg = segments(slow)[index]["leg"]
        XCTAssertEqual(leg?["rides"]?.arrayValue?.first?["trip_id"], ride["trip_id"], "the pinned bus still: \(slow)")
        XCTAssertEqual(leg?["rides"]?.arrayValue?.first?["departure"], ride["departure"], "\(slow)")
        XCTAssertEqual(slow["pending"]?.arrayValue ?? [], [], "nothing to propose for a pin still caught: \(slow)")
        XCTAssertNotEqual(segments(slow)[index]["missed_connection"], .bool(true), "\(slow)")
        let slowWalk = try XCTUnwrap(accessWalkSeconds(segments(slow)[index]), "\(slow)")
        XCTAssertGreaterThan(slowWalk, walk * 1.2, "the pinned leg's walk at the slow pace: \(slow)")
        // Back to normal: the same bus, the walk as it was.
        let normal = try harness.json(["plan", "pace", plan, "normal"])
        XCTAssertEqual(segments(normal)[index]["leg"]?["rides"]?.arrayValue?.first?["trip_id"], ride["trip_id"], "\(normal)")
        XCTAssertEqual(normal["pending"]?.arrayValue ?? [], [], "\(normal)")
        XCTAssertEqual(try XCTUnwrap(accessWalkSeconds(segments(normal)[index]), "\(normal)"), walk, accuracy: 1, "\(normal)")
    }

    /// The same plan, bus 29 pinned from Frenckell at 08:03, 289 m from Keskustori where the
    /// plan starts at 08:00: walked slowly, the traveller gets there after it leaves. The pin is
    /// missed, and the proposal is the earliest-arriving ride they can still catch, the first
    /// arrival `plan alternatives` lists for the segment (the proposal rule).
    func testASlowerPaceThatMissesAPinProposesTheEarliestArrivalStillCaught() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "TAYS", "Kaleva", "Lielahti", "--mode", "transit",
                                        "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let index = try XCTUnwrap(transitSegments(created).first, "\(created)")
        let leaves = try XCTUnwrap(segments(created)[index]["leg"]?["rides"]?.arrayValue?.first?["departure"]?.stringValue, "\(created)")
        _ = try harness.json(["plan", "pin", plan, String(index + 1), String(leaves.dropFirst(11).prefix(5))])
        let slow = try harness.json(["plan", "pace", plan, "slow"])
        XCTAssertEqual(segments(slow)[index]["missed_connection"], .bool(true), "a slow walk misses the \(leaves): \(slow)")
        let proposal = try XCTUnwrap((slow["pending"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(index + 1)) }?["latest"],
                                     "a proposal for the missed pin: \(slow)")
        let options = try harness.json(["plan", "alternatives", plan, String(index + 1)])["options"]?.arrayValue ?? []
        let earliest = try XCTUnwrap(options.compactMap { date($0["leg"]?["arrival"] ?? $0["arrival"]) }.min(), "\(options)")
        XCTAssertEqual(try XCTUnwrap(date(proposal["arrival"]), "\(proposal)"), earliest, "the earliest arrival caught: \(proposal) among \(options)")
        let ready = try XCTUnwrap(date(nodes(slow)[index]["time"]), "\(slow)")
        let boards = try XCTUnwrap(date(proposal["rides"]?.arrayValue?.first?["departure"]), "\(proposal)")
        XCTAssertGreaterThanOrEqual(boards, ready, "a ride leaving once the traveller is there: \(slow)")
    }

    /// The same plan: `plan pin ID 4 08:41`, the ride segment 4 already shows, changed segments
    /// 1–3 (bus 29 from Frenckell and bus 6 to Hippos C became bus 6 from Koskipuisto C and bus
    /// 95X to Sammonaukio C). Pinning a shown ride changes nothing but the pin: every ride the
    /// plan shows, pinned by the minute it leaves, leaves every node and leg as they were.
    func testPinningTheRideThePlanShowsChangesNoLeg() throws {
        let trips: [[String]] = [["Keskustori", "TAYS", "Kaleva", "Lielahti", "--at", "2022-01-12T08:00"],
                                 ["Keskustori", "Tampere-talo", "TAYS", "Kaleva", "Pyynikintori", "--at", "2022-01-12T07:10"],
                                 ["Lielahti", "Hervanta", "Keskustori", "--arrive-by", "2022-01-12T11:00"]]
        let pinned = try trips.reduce(0) { $0 + (try pinningEachShownRide(of: $1)) }
        XCTAssertGreaterThanOrEqual(pinned, 6, "rides pinned")
    }

    /// The same over seeded day plans of three places in Tampere at morning times.
    func testPinningTheRideSeededPlansShowChangesNoLeg() throws {
        var g = SeededRandom(seed: 5701)
        func point() -> String {
            String(format: "%.5f,%.5f", Double.random(in: 61.44...61.51, using: &g), Double.random(in: 23.68...23.86, using: &g))
        }
        var pinned = 0
        for _ in 0..<8 {
            let at = String(format: "2022-01-12T%02d:%02d", Int.random(in: 6...10, using: &g), Int.random(in: 0...59, using: &g))
            pinned += try pinningEachShownRide(of: [point(), point(), point(), "--at", at])
        }
        XCTAssertGreaterThanOrEqual(pinned, 8, "rides pinned")
    }

    /// Pins each ride a new transit plan of `trip` (places, then options) shows, by the minute
    /// it leaves, on a fresh copy of the plan, and checks that every node and every segment is
    /// as it was but for the pin. Returns how many rides it pinned (none: no plan, exit 4).
    private func pinningEachShownRide(of trip: [String]) throws -> Int {
        let harness = try harness
        let arguments = ["plan", "new"] + trip.prefix { !$0.hasPrefix("--") } + ["--mode", "transit"] + trip.drop { !$0.hasPrefix("--") }
        guard try harness.umctl(arguments + ["--json"]).status != 4 else { return 0 }
        let created = try harness.json(arguments)
        var pinned = 0
        for index in transitSegments(created) {
            guard let ride = segments(created)[index]["leg"]?["rides"]?.arrayValue?.first,
                  let leaves = ride["departure"]?.stringValue else { continue }
            let plan = try id(try harness.json(arguments))
            let before = try harness.json(["plan", "show", plan])
            XCTAssertEqual(segments(before), segments(created), "\(trip): the same plan again")
            let after = try harness.json(["plan", "pin", plan, String(index + 1), String(leaves.dropFirst(11).prefix(5))])
            XCTAssertEqual(after["pins"]?.arrayValue?.count, 1, "\(after)")
            // A walk the planner chose before the ride leaves at the start while nothing is pinned
            // (it was chosen because no ride got there sooner), and is timed back from a pin, as
            // every walk before a pin is (`RoutePlan.schedule`): the same walks, shown later.
            let walkedBefore = segments(before).prefix(index).contains { $0["mode_note"]?.stringValue?.hasPrefix("walked") == true }
            XCTAssertEqual(nodes(after).map { Self.untimed($0, if: walkedBefore) }, nodes(before).map { Self.untimed($0, if: walkedBefore) },
                           "\(trip) pinning segment \(index + 1) at \(leaves): the nodes as they were")
            for (segment, (was, now)) in zip(segments(before), segments(after)).enumerated() {
                let untimed = walkedBefore && segment < index && now["leg"]?["rides"]?.arrayValue?.isEmpty != false
                XCTAssertEqual(Self.untimed(Self.withoutMarkers(now), if: untimed), Self.untimed(Self.withoutMarkers(was), if: untimed),
                               "\(trip) pinning segment \(index + 1) at \(leaves): segment \(segment + 1) as it was")
            }
            pinned += 1
        }
        return pinned
    }

    /// Plan Keskustori → TAYS → Kaleva → Lielahti at 08:00 by transit, its ride from Kaleva A
    /// pinned by the minute it leaves: (plan, that segment, the plan pinned).
    private func kalevaLielahtiPinned(_ harness: DaemonHarness) throws -> (String, Int, JSONValue) {
        let created = try harness.json(["plan", "new", "Keskustori", "TAYS", "Kaleva", "Lielahti", "--mode", "transit",
                                        "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let index = try XCTUnwrap(transitSegments(created).last, "\(created)")
        XCTAssertNotNil(accessWalkSeconds(segments(created)[index]), "a walk to the last ride's stop: \(created)")
        let leaves = try XCTUnwrap(segments(created)[index]["leg"]?["rides"]?.arrayValue?.first?["departure"]?.stringValue, "\(created)")
        let pinned = try harness.json(["plan", "pin", plan, String(index + 1), String(leaves.dropFirst(11).prefix(5))])
        return (plan, index, pinned)
    }

    /// Seconds of a transit segment's walk to its first stop (nil: none that long).
    private func accessWalkSeconds(_ segment: JSONValue) -> Double? {
        (segment["leg"]?["walks"]?.arrayValue ?? []).first { $0["kind"] == .string("access") && ($0["distance_m"]?.numberValue ?? 0) > 50 }?["duration_s"]?.numberValue
    }

    /// A node or a street segment without its shown times (and a note's words, which read
    /// them), when `untimed`.
    private static func untimed(_ value: JSONValue, if untimed: Bool) -> JSONValue {
        guard untimed, case .object(var fields) = value else { return value }
        fields["time"] = nil
        fields["mode_note"] = nil
        if case .object(var leg)? = fields["leg"] {
            leg["departure"] = nil
            leg["arrival"] = nil
            fields["leg"] = .object(leg)
        }
        return .object(fields)
    }

    /// A segment as the plan shows it, without what a pin adds to it (locked).
    private static func withoutMarkers(_ segment: JSONValue) -> JSONValue {
        guard case .object(var fields) = segment else { return segment }
        fields["locked"] = nil
        return .object(fields)
    }
}
