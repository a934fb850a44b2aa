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

    /// Trial 60 F2a: `plan mode ID 6 transit` on the walk from Sorsapuisto to the destination (a
    /// ride set by hand), then `plan remove ID 4` of the place before it, left bus 90C to
    /// Irjalankatu (the stop inferred for the removed place) and the ride set by hand boarding the
    /// same bus 90C there, riding on to Niihamankatu E to come back on bus 95X: 09:42 where a new
    /// plan of the two places arrives 09:16. The planner's ride and a ride the user only set to
    /// transit meeting at the removed place's stop are one ride, the lock (the user's mode) kept.
    func testRemovingThePlaceBeforeARideSetByHandRidesItsBusOnce() throws {
        let harness = try harness
        let destination = "61.49976,23.77777", at = "2022-01-12T09:06"
        let created = try harness.json(["plan", "new", "Keskustori", "61.50161,23.85955", destination, "--at", at, "--mode", "transit"])
        let id = try id(created)
        // The waypoint the user typed, between the two rides of the plan.
        guard let waypoint = nodes(created).indices.dropFirst().dropLast().first(where: { nodes(created)[$0]["inferred"] == .bool(false) }),
              transitSegments(created).contains(where: { $0 < waypoint }), transitSegments(created).contains(where: { $0 >= waypoint })
        else { return XCTFail("Tampere's timetable: a ride before the waypoint and one after: \(created)") }
        let last = segments(created).count
        XCTAssertEqual(segments(created).last?["mode"], .string("walk"), "the walk to the destination: \(created)")
        let ridden = try harness.json(["plan", "mode", id, String(last), "transit"])
        XCTAssertTrue(tripsInTwoSegments(ridden).isEmpty, "before the removal: \(tripsBySegment(ridden))")
        let removed = try harness.json(["plan", "remove", id, String(waypoint + 1)])
        XCTAssertEqual(tripsInTwoSegments(removed), [:], "one trip in two segments: \(tripsBySegment(removed)) \(removed)")
        // The stop the planner inferred for the removed place is no ride's change any more: the
        // journey arrives no later than a new plan of the two places.
        let fresh = try harness.json(["plan", "new", "Keskustori", destination, "--at", at, "--mode", "transit"])
        let arrives = try XCTUnwrap(date(nodes(removed).last?["time"])), freshArrives = try XCTUnwrap(date(nodes(fresh).last?["time"]))
        XCTAssertLessThanOrEqual(arrives, freshArrives.addingTimeInterval(60), "arrives \(arrives), a new plan \(freshArrives): \(removed)")
        XCTAssertEqual(segments(removed).last?["locked"], .bool(true), "the ride set by hand keeps its lock: \(removed)")
    }
}
