import Foundation
import WireProtocol
import XCTest

/// Session 60, F3: a pin a stay makes missed was proposed from the stop inferred for the ride
/// missed, not from where the traveller is. Pyynikintori → Keskustori → Hervanta at 08:30 with
/// bus 9 at 08:41 (+ bus 6) pinned from Keskustori E, then 20 min at Keskustori: the proposal was
/// bus 9 at 09:10, arriving 09:34, while the traveller leaving Keskustori at 08:57:47 catches bus
/// 33 at 09:00 from Keskustori L and bus 6 after it, arriving 09:25:44 (as `compare` answers).
final class MissedPinProposedFromWhereTheTravellerIsTests: SharedTampereDaemonTestCase {
    func testAStayThatMakesAPinMissedProposesTheBestRideFromThePlaceTheTravellerLeaves() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Pyynikintori", "Keskustori", "Hervanta", "--mode", "transit",
                                        "--at", "2022-01-12T08:30"])
        let id = try id(created)
        // The node of Keskustori (the user's), and the ride from the stop inferred after it.
        let place = try XCTUnwrap(nodes(created).firstIndex { $0["name"] == .string("Keskustori") && $0["inferred"] == .bool(false) },
                                  "\(created)")
        let ride = place + 1  // 0-based: the walk to the stop is segment `place`
        guard segments(created).indices.contains(ride), segments(created)[ride]["mode"] == .string("transit"),
              nodes(created)[ride]["inferred"] == .bool(true) else {
            return XCTFail("Keskustori walks to a stop inferred for a ride: \(created)")
        }
        let pinned = try harness.umctl(["plan", "pin", id, String(ride + 1), "--line", "6"])
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        let stayed = try harness.json(["plan", "stay", id, String(place + 1), "20m"])
        XCTAssertEqual(segments(stayed)[ride]["missed_connection"], .bool(true), "the stay makes the pin missed: \(stayed)")
        let proposal = try XCTUnwrap(stayed["pending"]?.arrayValue?.first?["latest"], "a proposal: \(stayed)")

        // The best the traveller can catch leaving Keskustori when the stay ends (asked in the
        // minute after: no earlier than they leave).
        let node = nodes(stayed)[place]
        let leaves = try XCTUnwrap(date(node["departure"]), "\(node)")
        let minute = Date(timeIntervalSince1970: (leaves.timeIntervalSince1970 / 60).rounded(.up) * 60)
        let asked = WireTime.string(from: minute, timeZone: try XCTUnwrap(TimeZone(identifier: "Europe/Helsinki")))
        let compared = try harness.json(["compare", typed(node), typed(nodes(stayed).last), "--at", asked])
        let transit = try XCTUnwrap(compared["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }, "\(compared)")
        let best = try XCTUnwrap(date(transit["arrival"]), "\(transit)")
        let arrival = try XCTUnwrap(date(proposal["arrival"]), "\(proposal)")
        XCTAssertLessThanOrEqual(arrival, best.addingTimeInterval(1),
                                 "the proposal \(proposal) arrives after the ride from Keskustori at \(asked): \(transit)")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(date(proposal["rides"]?.arrayValue?.first?["departure"])), leaves, "\(proposal)")

        // `plan alternatives` of the pin lists it first among what arrives earliest.
        let options = try harness.json(["plan", "alternatives", id, String(ride + 1), "--count", "5"])["options"]?.arrayValue ?? []
        let earliest = options.compactMap { date($0["arrival"]) }.min()
        XCTAssertEqual(earliest, arrival, "the options of the pin and its proposal agree: \(options)")

        // Accepted, the ride boards where it boards: the node before it is its stop.
        let accepted = try harness.json(["plan", "accept", id, String(ride + 1)])
        let taken = segments(accepted)[ride]
        let boarded = taken["leg"]?["rides"]?.arrayValue?.first?["from"]
        XCTAssertEqual(nodes(accepted)[ride]["name"], boarded, "\(accepted)")
        XCTAssertEqual(date(nodes(accepted).last?["time"]), arrival, "\(accepted)")
        XCTAssertNotEqual(taken["missed_connection"], .bool(true), "\(taken)")
    }
}
