import Foundation
import WireProtocol
import XCTest

/// Trial 56 F7 (issue 39 item 3): after `plan remove` of the place between two rides, the ride
/// before it and the ride after it met at a stop the planner inferred, and one vehicle trip ran
/// through both segments (bus 9 to Keskustori E, then bus 9 on from there), where `plan new`
/// for the same places rides it once.
final class RemoveKeepsOneTripOneRideTests: SharedTampereDaemonTestCase {
    /// `plan new Lielahti Keskustori 61.49217,23.79431 --mode transit --at 08:40`, `plan remove ID 3`.
    func testRemovingThePlaceBetweenTwoRidesNeverSplitsOneTripAcrossSegments() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Lielahti", "Keskustori", "61.49217,23.79431", "--mode", "transit",
                                        "--at", "2022-01-12T08:40"])
        let keskustori = try XCTUnwrap(nodes(created).firstIndex { $0["name"] == .string("Keskustori") }, "\(created)")
        let removed = try harness.json(["plan", "remove", try id(created), String(keskustori + 1)])
        XCTAssertFalse(transitSegments(removed).isEmpty, "still a ride: \(removed)")
        var segmentOfTrip: [String: Int] = [:]
        for (index, segment) in segments(removed).enumerated() {
            for ride in segment["leg"]?["rides"]?.arrayValue ?? [] {
                guard let trip = ride["trip_id"]?.stringValue else { continue }
                if let other = segmentOfTrip[trip], other != index {
                    XCTFail("trip \(trip) rides in segments \(other + 1) and \(index + 1): \(removed)")
                }
                segmentOfTrip[trip] = index
            }
        }
        XCTAssertFalse(segmentOfTrip.isEmpty, "the rides name their trips: \(removed)")
    }
}
