import Foundation
import WireProtocol
import XCTest

/// Issue 39, session 60 F5: the proposal for a pin that gives way was asked to the stop the
/// planner had inferred for the pinned ride, not to the traveller's place after it: a better
/// stop near the place, on another line, was never found (`Planner.queryToTheTravellersPlace`,
/// the end-stop mirror of `queryFromTheTravellersPlace`).
final class LatePinProposedToTheTravellersPlaceTests: SharedTampereDaemonTestCase {
    /// `plan new Hervanta "Hämeenkatu 9" Pyynikintori --arrive-by 09:40 --mode transit`, bus 8 at
    /// 09:29 pinned, `plan time ID --arrive-by 09:33`: the late pin's proposal was bus 8 at 09:21
    /// (to Pyynikintori D, by 09:31), where bus 52A at 09:25 gets to Pyynikintori F, 51 m from the
    /// place, by 09:31, and is what a new plan of the two places takes.
    func testALatePinIsProposedTheLatestRideToThePlaceNotToItsOldStop() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hervanta", "Hämeenkatu 9", "Pyynikintori", "--arrive-by", "2022-01-12T09:40",
                                        "--mode", "transit"])
        let plan = try id(created)
        guard let ride = transitSegments(created).last, segments(created).indices.contains(ride + 1),
              nodes(created).last?["name"] == .string("Pyynikintori"), nodes(created)[ride]["name"] != .string("Hervanta"),
              segments(created)[ride + 1]["mode"] == .string("walk") else {
            return XCTFail("a ride to a stop inferred for Pyynikintori, then a walk: \(created)")
        }
        let departure = try XCTUnwrap(segments(created)[ride]["leg"]?["departure"]?.stringValue, "\(created)")
        _ = try harness.json(["plan", "pin", plan, String(ride + 1), departure])
        let late = try harness.json(["plan", "time", plan, "--arrive-by", "2022-01-12T09:33"])
        let pending = try XCTUnwrap(late["pending"]?.arrayValue?.first { $0["segment"]?.numberValue == Double(ride + 1) },
                                    "the late pin gets a proposal: \(late)")
        let proposed = try XCTUnwrap(date(pending["latest"]?["rides"]?.arrayValue?.first?["departure"]), "a ride: \(pending)")
        // A new plan of the via and the place arriving by 09:33 leaves as late as this.
        let compare = try harness.json(["compare", "Hämeenkatu 9", "Pyynikintori", "--arrive-by", "2022-01-12T09:33"])
        let fresh = compare["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }
        let freshRide = try XCTUnwrap(date(fresh?["rides"]?.arrayValue?.first?["departure"]), "a ride: \(compare)")
        XCTAssertGreaterThanOrEqual(proposed.timeIntervalSince(freshRide), -30,
                                    "proposed the latest ride a new plan takes (\(freshRide)): \(pending)")
    }
}
