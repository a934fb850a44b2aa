import XCTest
@testable import Planner

/// Pins and chosen routes never vanish silently (issue 28 item 14): a new time keeps the pin, a
/// location fix carries it, and a chosen walk or car route survives the legs being asked again.
final class PinsKeptTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    func walkPlan() throws -> RoutePlan {
        try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA),
                              PlanNode(place: Fixture.office)], modes: [.walk, .transit],
                      timePreference: .departAt(Fixture.morning))
    }

    /// The quieter route the user chose: 9 min instead of the engine's quickest 7.
    static let quieterRoute = RouteLeg(mode: .walk, expectedTravelTime: 9 * 60, distance: 700,
                                       geometry: [Fixture.home.coordinate, Fixture.stopA.coordinate])

    func testAChosenWalkRouteIsKeptWhenTheTimeChangesAndTheLegsAreAskedAgain() async throws {
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        let planner = Planner(routing: port, clock: clock)
        let chosen = try await planner.computeLegs(try walkPlan()).choosingAlternative(Self.quieterRoute, ofSegment: 0)
        XCTAssertTrue(chosen.isChosenRoute(segment: 0))
        let retimed = try await planner.computeLegs(chosen.settingTimePreference(.departAt(Fixture.at(30))))
        XCTAssertEqual(retimed.legs[0], Self.quieterRoute, "the user's route, not the engine's quickest")
        let refreshed = try await planner.computeLegs(retimed.refreshing())
        XCTAssertEqual(refreshed.legs[0], Self.quieterRoute)
        let asked = await port.askedSegments
        XCTAssertEqual(asked.filter { $0 == "Home→Stop A" }.count, 1, "asked once, before the choice")
    }

    func testAChosenWalkRouteIsRescaledNotReplacedWhenThePaceChanges() throws {
        let chosen = try walkPlan().choosingAlternative(Self.quieterRoute, ofSegment: 0)
        let slow = chosen.settingPace(.slow)
        XCTAssertEqual(slow.legs[0]?.geometry, Self.quieterRoute.geometry)
        XCTAssertEqual(try XCTUnwrap(slow.legs[0]?.expectedTravelTime), 9 * 60 * 1.25, accuracy: 0.001)
    }

    func testALocationFixThatMovesTheCurrentLocationKeepsThePinOnItsSegment() throws {
        var origin = PlanNode(place: Place(name: "Current location", coordinate: Fixture.home.coordinate))
        origin.isCurrentLocation = true
        let plan = try RoutePlan(restoring: [origin, PlanNode(place: Fixture.office)], modes: [.car],
                                 legs: [Fixture.car(15)], timePreference: .departAt(Fixture.morning), pace: .normal,
                                 locks: [:], pinned: nil, pending: [:])
        let pinned = try plan.pinningDeparture(ofSegment: 0, to: Fixture.car(15), departingAt: Fixture.at(10))
        let moved = pinned.resolvingCurrentLocation(Fixture.stopA.coordinate)
        XCTAssertEqual(moved.pinnedSegmentIndex, 0, "the pin follows the node, as its lock does")
        XCTAssertEqual(moved.pinned?.departure, Fixture.at(10))
        XCTAssertTrue(moved.isLocked(segment: 0))
    }
}
