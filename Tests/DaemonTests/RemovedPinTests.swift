@testable import Daemon
import Foundation
import Planner
import XCTest

/// `PlanRepository.RemovedPin.between` names the pins an edit removed, and only those: a pin is
/// its departure on its trips, wherever its segment is keyed.
final class RemovedPinTests: XCTestCase {
    static let morning = Date(timeIntervalSince1970: 1_641_974_400)
    static let here = Place(name: "Current location", coordinate: Coordinate(latitude: 61.4978, longitude: 23.7610))
    static let stop = Place(name: "Keskustori", coordinate: Coordinate(latitude: 61.4980, longitude: 23.7620), kind: .transitStop)
    static let office = Place(name: "Hervanta", coordinate: Coordinate(latitude: 61.4502, longitude: 23.8510))

    /// @here -walk- Keskustori -transit- Hervanta, the walk pinned at 08:00.
    func pinnedFromHere() throws -> RoutePlan {
        let plan = try RoutePlan(nodes: [PlanNode(place: Self.here, isCurrentLocation: true), PlanNode(place: Self.stop),
                                         PlanNode(place: Self.office)], modes: [.walk, .transit])
        return try plan.pinningDeparture(ofSegment: 0, to: RouteLeg(mode: .walk, expectedTravelTime: 120), departingAt: Self.morning)
    }

    func testALocationFixThatReKeysAPinDoesNotReportItRemoved() throws {
        let pinned = try pinnedFromHere()
        let moved = pinned.resolvingCurrentLocation(Coordinate(latitude: 61.4979, longitude: 23.7611))
        XCTAssertNotEqual(moved.segmentKey(0), pinned.segmentKey(0), "the fix re-keys the segment")
        XCTAssertEqual(moved.pin(ofSegment: 0)?.departure, Self.morning, "the pin followed the node")
        XCTAssertEqual(PlanRepository.RemovedPin.between(pinned, moved), [])
    }

    func testAPinThatReallyGoesIsStillNamed() throws {
        let pinned = try pinnedFromHere()
        let driven = try pinned.changingMode(ofSegment: 0, to: .car)
        XCTAssertEqual(PlanRepository.RemovedPin.between(pinned, driven),
                       [PlanRepository.RemovedPin(from: "Current location", to: "Keskustori", departure: Self.morning)])
    }
}
