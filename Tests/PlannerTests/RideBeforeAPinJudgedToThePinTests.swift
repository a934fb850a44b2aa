import XCTest
@testable import Planner

/// The walk rule judges a ride timed back to the pinned segment after it, in a plan that leaves
/// at a time, up to the latest the traveller may be at its end to make the pin, as an arrive-by
/// plan judges it up to its deadline: the wait there counts (`JudgedTimes.span`, `latestArrivalsForPins`;
/// trial 59b F8: bus 19 at 09:12:40 reached Rautatieasema A at 09:26:25 for the walk to a pinned
/// bus 12 leaving 09:29:28, and was kept though the 1002 s walk makes the pin too).
final class RideBeforeAPinJudgedToThePinTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)
    static let middle = Fixture.place("Middle", east: 1_500)

    /// Home → Middle by a 10-min ride leaving at 20 min (walking takes `walkMinutes`), Middle →
    /// Office by the bus at 40 min, pinned.
    func judged(walkMinutes: Double) async throws -> RoutePlan {
        let port = FakeRoutingPort(legs: { query in
            if query.mode == .walk { return Fixture.walk(walkMinutes, metres: 1_400) }
            if query.from.name == "Middle" { return Fixture.transit(departing: Fixture.at(40), minutes: 20, trip: "pinned") }
            var ride = Fixture.transit(departing: Fixture.at(20), minutes: 10, trip: "early")
            ride.walkingIsNoSlower = true
            return ride
        })
        let planner = Planner(routing: port, clock: clock)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Self.middle), PlanNode(place: Fixture.office)],
                                 modes: [.transit, .transit], timePreference: .departAt(Fixture.at(0)))
        let pinned = try await planner.computeLegs(plan).pinningDeparture(ofSegment: 1)
        return try await planner.walkingRidesWalkingBeats(in: try await planner.computeLegsReporting(pinned)).plan
    }

    func testARideBeforeAPinIsWalkedWhenTheWalkStillMakesThePin() async throws {
        let plan = try await judged(walkMinutes: 18)
        XCTAssertEqual(plan.modes, [.walk, .transit], "18 min walked by the 40-min bus, as the 10-min ride and its wait")
        XCTAssertEqual(plan.note(ofSegment: 0)?.mode?.kind, .walkedNoSlower)
        XCTAssertEqual(plan.schedule()[1], Fixture.at(40), "walked to be there when the pinned bus leaves")
    }

    func testARideBeforeAPinStaysWhenWalkingMissesThePin() async throws {
        let plan = try await judged(walkMinutes: 21)
        XCTAssertEqual(plan.modes, [.transit, .transit], "a 21-min walk from 20 min misses the 40-min bus")
    }

    func testTheLatestTimeToBeAtAPinnedSegmentsStartIsWhenItLeaves() async throws {
        let port = FakeRoutingPort(legs: { query in
            query.from.name == "Middle" ? Fixture.transit(departing: Fixture.at(40), minutes: 20, trip: "pinned")
                : Fixture.transit(departing: Fixture.at(20), minutes: 10, trip: "early")
        })
        let planner = Planner(routing: port, clock: clock)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Self.middle), PlanNode(place: Fixture.office)],
                                 modes: [.transit, .transit], timePreference: .departAt(Fixture.at(0)))
        let pinned = try await planner.computeLegs(try await planner.computeLegs(plan).pinningDeparture(ofSegment: 1))
        XCTAssertEqual(pinned.latestArrivalsForPins(), [nil, Fixture.at(40), nil])
        XCTAssertEqual(pinned.unpinning().latestArrivalsForPins(), [nil, nil, nil], "no pin, no time to make")
    }
}
