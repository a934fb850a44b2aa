import Foundation
import Planner
import WireProtocol
import XCTest

/// Issue 39, "no walk-back to a farther stop of the same trip", for a pinned ride. Hämeenkatu 9 →
/// Hervannan kampus with bus 6 pinned at Rautatieasema C at 09:00, then `plan insert …
/// Pyynikintori --after 1`: the ride from Pyynikintori came to Koskipuisto D at 08:56 and walked
/// 332 m on to Rautatieasema C for bus 6, although the same trip calls at Koskipuisto D at
/// 09:02:45. The pin fixes the bus, not the stop it is boarded at.
final class PinnedRideBoardsItsTripsNearestStopTests: SharedTampereDaemonTestCase {
    func testAPlaceInsertedBeforeAPinnedBusBoardsItAtTheStopOfItsTripTheRideBeforeComesTo() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hämeenkatu 9", "Hervannan kampus", "--mode", "transit",
                                        "--at", "2022-01-12T08:00"])
        let id = try id(created)
        let pinned = try harness.json(["plan", "pin", id, "2", "09:00"])
        let bus = try XCTUnwrap(segments(pinned)[1]["leg"]?["rides"]?.arrayValue?.first, "the pinned ride")
        guard bus["line"] == .string("6"), bus["from"] == .string("Rautatieasema C") else {
            return XCTFail("bus 6 pinned at Rautatieasema C: \(bus)")
        }
        let inserted = try harness.json(["plan", "insert", id, "Pyynikintori", "--after", "1"])
        let nodes = nodes(inserted), segments = segments(inserted)
        guard nodes.count == 4, nodes[1]["name"] == .string("Pyynikintori"), segments.count == 3 else {
            return XCTFail("Pyynikintori inserted before the pinned bus: \(nodes.map { $0["name"]?.stringValue ?? "?" })")
        }
        // Still the pinned bus, caught, with nothing proposed instead.
        XCTAssertEqual(inserted["pinned_segments"], .array([.number(3)]))
        let ride = try XCTUnwrap(segments[2]["leg"]?["rides"]?.arrayValue?.first, "the pinned segment's ride")
        XCTAssertEqual(ride["trip_id"], bus["trip_id"], "the same vehicle")
        // Boarded where the ride before it comes to: no walk on to a farther stop of its trip.
        XCTAssertEqual(ride["from"], .string("Koskipuisto D"))
        XCTAssertEqual(nodes[2]["name"], .string("Koskipuisto D"))
        let before = try XCTUnwrap(segments[1]["leg"], "the ride to the pinned bus")
        let walkOn = (before["walks"]?.arrayValue ?? []).filter { $0["kind"] == .string("egress") }
            .compactMap { $0["distance_m"]?.numberValue }.reduce(0, +)
        XCTAssertEqual(walkOn, 0, "walks \(Int(walkOn)) m from where the ride before alights to \(nodes[2]["name"]?.stringValue ?? "?")")
        // The pin names the stop boarded: it leaves when the bus calls there.
        let pin = try XCTUnwrap(inserted["pins"]?.arrayValue?.first)
        XCTAssertEqual(pin["departure"], ride["departure"])
        // Recomputed, the pin holds there: re-found from the stop it names, nothing proposed
        // (asked again from Koskipuisto D the engine answers bus 10 at 09:04, arriving in the same minute).
        let refreshed = try harness.json(["plan", "refresh", id])
        XCTAssertEqual(self.segments(refreshed)[2]["leg"]?["rides"]?.arrayValue?.first?["from"], .string("Koskipuisto D"))
        XCTAssertEqual(refreshed["pending"]?.arrayValue ?? [], [])
    }

    /// The same with Tesoma A inserted: bus 8 from there comes to Koskipuisto D at 08:52 and
    /// walked 332 m on to Rautatieasema C. The insert also left a proposal of tram 3 at 10:01,
    /// made while the new hop was a 1 h 35 min walk that missed the pin, beside the bus the
    /// plan catches (`droppingProposalsOfPinsCaught`).
    func testTesomaInsertedBeforeThePinnedBusBoardsItAtKoskipuisto() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hämeenkatu 9", "Hervannan kampus", "--mode", "transit",
                                        "--at", "2022-01-12T08:00"])
        let id = try id(created)
        let pinned = try harness.json(["plan", "pin", id, "2", "09:00"])
        let bus = try XCTUnwrap(segments(pinned)[1]["leg"]?["rides"]?.arrayValue?.first, "the pinned ride")
        let inserted = try harness.json(["plan", "insert", id, "Tesoma A", "--after", "1"])
        let segments = segments(inserted)
        guard segments.count == 3 else { return XCTFail("Tesoma A inserted: \(nodes(inserted).map { $0["name"]?.stringValue ?? "?" })") }
        let ride = try XCTUnwrap(segments[2]["leg"]?["rides"]?.arrayValue?.first, "the pinned segment's ride")
        XCTAssertEqual(ride["trip_id"], bus["trip_id"], "the same vehicle")
        XCTAssertEqual(ride["from"], .string("Koskipuisto D"))
        XCTAssertEqual(inserted["pending"]?.arrayValue ?? [], [], "no proposal beside a pin the plan catches: \(inserted)")
    }
}
