import Foundation
@testable import Planner
import XCTest

/// In `compare`, the transit option's access and egress walks are asked at once, and a street leg
/// the options need alike is asked once (`StreetLegShare`).
final class AccessEgressWalkTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    /// The shared fake, except that no walk is answered until two walks are waiting: a planner
    /// that asks the egress walk only after the access walk (and the ride) gets an engine failure
    /// for the access walk after the rendezvous gives up.
    struct WalksMeetPort: RoutingPort {
        let inner: FakeRoutingPort
        let meeting = ParallelCompareTests.Rendezvous(expected: 2)

        func leg(for query: LegQuery) async throws -> RouteLeg {
            if query.mode == .walk {
                guard await meeting.arrive() else { throw RoutingError.engineFailure("asked alone: the walks are not asked at once") }
            }
            return try await inner.leg(for: query)
        }
        func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
            try await inner.nearbyStops(around: coordinate, radius: radius, limit: limit)
        }
        func search(_ text: String, near: Coordinate?) async throws -> [Place] { [] }
        func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] { [try await leg(for: query)] }
    }

    private func assertWalksAskedAtOnce(_ time: TimePreference, file: StaticString = #filePath, line: UInt = #line) async throws {
        let inner = FakeRoutingPort(stops: RefinementTests.stops(PlanBuilderTests.allStops), legs: PlanBuilderTests.legs)
        let comparisons = try await Planner(routing: WalksMeetPort(inner: inner), clock: clock)
            .compare(from: PlanNode(place: Fixture.home), to: PlanNode(place: Fixture.office), timePreference: time,
                     pace: .normal, modes: [.transit])
        let plan = try XCTUnwrap(comparisons.first?.result.get(), file: file, line: line)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Hallila bus stop", "Stop B", "Office"], file: file, line: line)
        XCTAssertTrue(plan.legs.allSatisfy { $0 != nil }, file: file, line: line)
        let walks = await inner.queries.filter { $0.mode == .walk }.map { "\($0.from.name)→\($0.to.name)" }
        XCTAssertEqual(Set(walks), ["Home→Hallila bus stop", "Stop B→Office"], file: file, line: line)
        XCTAssertEqual(walks.count, 2, "each walk asked once", file: file, line: line)
    }

    func testCompareLeavingAtATimeAsksTheAccessAndEgressWalksAtOnce() async throws {
        try await assertWalksAskedAtOnce(.departAt(Fixture.morning))
    }

    func testCompareArrivingByATimeAsksTheEgressAndAccessWalksAtOnce() async throws {
        try await assertWalksAskedAtOnce(.arriveBy(Fixture.at(60)))
    }

    func testTheEgressWalkAskedAheadStillFollowsTheRideInTime() async throws {
        let port = FakeRoutingPort(stops: RefinementTests.stops(PlanBuilderTests.allStops), legs: PlanBuilderTests.legs)
        let comparisons = try await Planner(routing: port, clock: clock)
            .compare(from: PlanNode(place: Fixture.home), to: PlanNode(place: Fixture.office),
                     timePreference: .departAt(Fixture.morning), pace: .normal, modes: [.transit])
        let plan = try XCTUnwrap(comparisons.first?.result.get())
        let access = try XCTUnwrap(plan.legs[0]), ride = try XCTUnwrap(plan.legs[1]), egress = try XCTUnwrap(plan.legs[2])
        XCTAssertEqual(ride.departure, Fixture.morning.addingTimeInterval(access.expectedTravelTime), "the ride waits for the access walk")
        XCTAssertEqual(egress.expectedTravelTime, Fixture.stopB.coordinate.distance(to: Fixture.office.coordinate) / 80 * 60, accuracy: 0.001)
        let arrival = try XCTUnwrap(ride.arrival).addingTimeInterval(egress.expectedTravelTime)
        XCTAssertEqual(try XCTUnwrap(plan.totalTravelTime), arrival.timeIntervalSince(Fixture.morning), accuracy: 0.001)
    }

    /// The destination is at a stop (a café by Stop X, a different place at the same point) and
    /// Stop X is the origin's nearest stop: the transit option's access walk goes to the very
    /// point the walk option walks to. The port is asked that walk once, and both use the answer.
    func testCompareAsksAWalkThatTheWalkAndTransitOptionsShareOnce() async throws {
        let stopX = Fixture.place("Stop X", east: 600, kind: .transitStop)
        let cafe = Fixture.place("Café by Stop X", east: 600)
        let port = FakeRoutingPort(stops: RefinementTests.stops([stopX]), legs: PlanBuilderTests.legs)
        let comparisons = try await Planner(routing: port, clock: clock)
            .compare(from: Fixture.home, to: cafe, timePreference: .departAt(Fixture.morning), pace: .normal)
        let walkOption = try XCTUnwrap(comparisons.first { $0.mode == .walk }?.plan)
        let transitOption = try XCTUnwrap(comparisons.first { $0.mode == .transit }?.plan)
        XCTAssertEqual(transitOption.nodes.map(\.place.name), ["Home", "Stop X", "Café by Stop X"])
        XCTAssertEqual(transitOption.legs[0], walkOption.legs[0], "the same walk")
        let walks = await port.queries.filter { $0.mode == .walk }
        XCTAssertEqual(walks.count, 1, "asked once: \(walks.map { "\($0.from.name)→\($0.to.name)" })")
    }
}
