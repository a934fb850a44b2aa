import Foundation
import Planner
import WireProtocol
import XCTest

/// Issue 39: the stop a plan boards a ride at is the stop of that ride's trip the traveller would
/// choose. `plan insert … Koskikeskus --after 1` into Keskustori → Hervantakeskus by tram walked
/// 601 m from Koskikeskus to Rautatieasema B for tram 3 at 10:59, while the same trip stops at
/// Koskipuisto B, 360 m away, at 10:57: the engine, asked from the stop nearest Koskikeskus
/// (Sorin aukio A, tram 1 only), timed the walks to the stops as stretched straight lines.
final class TripsNearestStopTests: SharedTampereDaemonTestCase {
    /// The plan's nodes and modes in a line, for messages.
    func chain(_ plan: JSONValue) -> String {
        let names = nodes(plan).map { $0["name"]?.stringValue ?? "?" }, modes = segments(plan).map { $0["mode"]?.stringValue ?? "?" }
        return names.indices.map { $0 < modes.count ? "\(names[$0]) -\(modes[$0])-> " : names[$0] }.joined()
    }

    func testAnInsertedPlaceBoardsTheTramAtTheNearestStopOfItsTripNotAStopFartherDownIt() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Hervantakeskus", "--mode", "transit", "--at", "2022-01-12T10:40"])
        let inserted = try harness.json(["plan", "insert", try id(created), "Koskikeskus", "--after", "1"])
        let nodes = nodes(inserted), segments = segments(inserted)
        guard nodes.count == 4, nodes[1]["name"] == .string("Koskikeskus"), nodes[2]["inferred"] == .bool(true),
              segments[1]["mode"] == .string("walk"), segments[2]["mode"] == .string("transit") else {
            return XCTFail("Koskikeskus, a walk to a stop and a ride: \(chain(inserted))")
        }
        let ride = try XCTUnwrap(segments[2]["leg"]?["rides"]?.arrayValue?.first, "\(chain(inserted))")
        let walked = try XCTUnwrap(segments[1]["leg"]?["distance_m"]?.numberValue, "\(chain(inserted))")
        // The walk to the stop where the trip calls two minutes before Rautatieasema B.
        let probe = try harness.json(["plan", "new", "Koskikeskus", "Koskipuisto B", "--mode", "walk", "--at", "2022-01-12T10:40"])
        let toKoskipuisto = try XCTUnwrap(self.segments(probe).first?["leg"]?["distance_m"]?.numberValue, "\(chain(probe))")
        XCTAssertLessThanOrEqual(walked, toKoskipuisto,
                                 "walks \(Int(walked)) m to \(nodes[2]["name"]?.stringValue ?? "?") for \(ride["vehicle"]?.stringValue ?? "?") "
                                 + "\(ride["line"]?.stringValue ?? "?") at \(ride["departure"]?.stringValue ?? "?"): \(chain(inserted))")
        // The ride still gets there: boarding nearer never arrives later than the minute the plan
        // showed (11:18; its seconds moved with the street-timed walk from the tram stop).
        let arrival = try XCTUnwrap(segments[2]["leg"]?["arrival"]?.stringValue, "\(chain(inserted))")
        XCTAssertLessThanOrEqual(arrival, "2022-01-12T11:18:59+02:00", "\(chain(inserted))")
    }
}

/// Issue 39 (trial 48, F9 again): every option `plan alternatives` lists boards its ride at the
/// stop of its own trip nearest the traveller. From Hervanta at 06:50 to Tampere-talo, bus 6
/// calls at Hervantakeskus E (635 m away) and a minute later at Opiskelija C (166 m, where the
/// plan's own answer boards it); the direct option on trip 7310745827 was listed leaving 07:05
/// for the 635 m walk to the 07:13:30 call, beside the same trip boarded at Opiskelija C with a
/// change, and the option leaving 07:12 for Opiskelija C was not listed.
final class OptionsBoardTheTripsNearestStopTests: SharedTampereDaemonTestCase {
    func testEveryListedOptionBoardsItsBusAtTheNearestStopOfItsTrip() throws {
        let harness = try harness
        let plan = try harness.json(["plan", "new", "Hervanta", "Tampere-talo", "--mode", "transit", "--at", "2022-01-12T06:50"])
        let segment = try XCTUnwrap(transitSegments(plan).first, "a transit segment")
        let answer = try XCTUnwrap(segments(plan)[segment]["leg"]?["rides"]?.arrayValue?.first, "the plan's ride")
        XCTAssertEqual(answer["line"], .string("6"))
        let nearest = try XCTUnwrap(answer["from"]?.stringValue)
        let options = try XCTUnwrap(harness.json(["plan", "alternatives", try id(plan), String(segment + 1), "--count", "5"])["options"]?
            .arrayValue)
        XCTAssertGreaterThanOrEqual(options.count, 5)
        for option in options {
            guard let ride = option["rides"]?.arrayValue?.first, ride["line"] == .string("6") else { continue }
            XCTAssertEqual(ride["from"]?.stringValue, nearest,
                           "option leaving \(option["departure"]?.stringValue ?? "?") boards bus 6 (trip \(ride["trip_id"]?.stringValue ?? "?")) "
                           + "at \(ride["from"]?.stringValue ?? "?")")
        }
        // The trip the option walked 635 m for, boarded at Opiskelija C: leaving about 07:12.
        let direct = options.filter { $0["rides"]?.arrayValue?.map { $0["trip_id"] } == [.string("7310745827")] }
        XCTAssertEqual(direct.count, 1, "the trip alone is one option")
        XCTAssertGreaterThanOrEqual(direct.first?["departure"]?.stringValue ?? "", "2022-01-12T07:12:00+02:00")
    }
}
