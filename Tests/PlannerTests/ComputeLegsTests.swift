import XCTest
@testable import Planner

/// `computeLegs`: sequential, a time cursor, only empty legs queried, failures isolated.
final class ComputeLegsTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    func transitPlan(preference: TimePreference = .leaveNow) throws -> RoutePlan {
        try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                              PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                      modes: [.walk, .transit, .walk], timePreference: preference)
    }

    /// Walks of 7 and 5 minutes; a bus every 15 minutes from 08:05 taking 20 minutes; car 15 min.
    static func script(_ query: LegQuery) throws -> RouteLeg {
        switch query.mode {
        case .walk: return Fixture.walk(query.from.name == "Home" ? 7 : 5)
        case .car: return Fixture.car(15)
        case .bike: return Fixture.bike(12)
        case .transit: return try Fixture.timetable([5, 20, 35, 50, 65], minutes: 20, timing: query.timing)
        }
    }

    func testTransitAfterAWalkIsSearchedFromTheArrivalTimeAtTheStation() async throws {
        let port = FakeRoutingPort(legs: Self.script)
        let plan = try await Planner(routing: port, clock: clock).computeLegs(try transitPlan())
        let queries = await port.queries
        XCTAssertEqual(queries.map(\.timing), [.departAt(Fixture.at(0)), .departAt(Fixture.at(7)), .departAt(Fixture.at(40))])
        // 08:07 at the stop: the 08:05 bus is gone, the 08:20 one is taken.
        XCTAssertEqual(plan.legs[1]?.departure, Fixture.at(20))
    }

    func testLegsAreQueriedInOrderAndAllFilled() async throws {
        let port = FakeRoutingPort(legs: Self.script)
        let plan = try await Planner(routing: port, clock: clock).computeLegs(try transitPlan())
        let asked = await port.askedSegments
        XCTAssertEqual(asked, ["Home→Stop A", "Stop A→Stop B", "Stop B→Office"])
        XCTAssertTrue(plan.legs.allSatisfy { $0 != nil })
        XCTAssertEqual(plan.schedule().last ?? nil, Fixture.at(45))
    }

    func testDepartAtStartsTheCursorAtTheRequestedDate() async throws {
        let port = FakeRoutingPort(legs: Self.script)
        _ = try await Planner(routing: port, clock: clock).computeLegs(try transitPlan(preference: .departAt(Fixture.at(30))))
        let first = await port.queries.first?.timing
        XCTAssertEqual(first, .departAt(Fixture.at(30)))
    }

    func testArriveByIsQueriedBackwardFromTheDate() async throws {
        let port = FakeRoutingPort(legs: Self.script)
        let plan = try await Planner(routing: port, clock: clock)
            .computeLegs(try transitPlan(preference: .arriveBy(Fixture.at(60))))
        let queries = await port.queries
        XCTAssertEqual(queries.map { "\($0.from.name)→\($0.to.name)" }, ["Stop B→Office", "Stop A→Stop B", "Home→Stop A"])
        // Walk 5 min to arrive by 09:00 → bus must arrive by 08:55 → 08:35 bus (arrives 08:55).
        XCTAssertEqual(queries.map(\.timing), [.arriveBy(Fixture.at(60)), .arriveBy(Fixture.at(55)), .arriveBy(Fixture.at(35))])
        XCTAssertEqual(plan.legs[1]?.departure, Fixture.at(35))
    }

    func testLegsAlreadyPresentAreNotQueriedButAdvanceTheCursor() async throws {
        var plan = try transitPlan()
        plan.legs[0] = Fixture.walk(12)
        let port = FakeRoutingPort(legs: Self.script)
        plan = try await Planner(routing: port, clock: clock).computeLegs(plan)
        let queries = await port.queries
        XCTAssertEqual(queries.count, 2)
        XCTAssertEqual(queries.first?.timing, .departAt(Fixture.at(12)))
        XCTAssertEqual(plan.legs[0], Fixture.walk(12))
    }

    func testAfterAnEditOnlyTheEmptiedLegsAreQueried() async throws {
        let planner = Planner(routing: FakeRoutingPort(legs: Self.script), clock: clock)
        let computed = try await planner.computeLegs(try transitPlan())
        let edited = try computed.changingMode(ofSegment: 2, to: .car)
        let port = FakeRoutingPort(legs: Self.script)
        _ = try await Planner(routing: port, clock: clock).computeLegs(edited)
        let asked = await port.askedSegments
        XCTAssertEqual(asked, ["Stop B→Office"])
        let mode = await port.queries.first?.mode
        XCTAssertEqual(mode, .car)
    }

    func testAfterInsertingANodeOnlyTheTwoNewSegmentsAreQueried() async throws {
        let planner = Planner(routing: FakeRoutingPort(legs: Self.script), clock: clock)
        let computed = try await planner.computeLegs(try transitPlan())
        let edited = try computed.insertingNode(PlanNode(place: Fixture.place("Kiosk", east: 9_800)), at: 3, mode: .walk)
        let port = FakeRoutingPort(legs: Self.script)
        let plan = try await Planner(routing: port, clock: clock).computeLegs(edited)
        let asked = await port.askedSegments
        XCTAssertEqual(asked, ["Stop B→Kiosk", "Kiosk→Office"])
        XCTAssertEqual(Array(plan.legs.prefix(2)), Array(computed.legs.prefix(2)))
    }

    func testAPaceChangeReTimesWalkAndTransitLegs() async throws {
        let planner = Planner(routing: FakeRoutingPort(legs: Self.script), clock: clock)
        let computed = try await planner.computeLegs(try transitPlan())
        let port = FakeRoutingPort(legs: { query in
            let leg = try Self.script(query)
            return query.mode == .walk ? Fixture.walk(leg.expectedTravelTime / 60 * query.pace.durationMultiplier) : leg
        })
        let slower = try await Planner(routing: port, clock: clock).computeLegs(computed.settingPace(.slow))
        let queries = await port.queries
        XCTAssertEqual(queries.map(\.mode), [.walk, .transit, .walk], "a transit leg's walks depend on the pace too")
        XCTAssertEqual(queries.map(\.pace), [.slow, .slow, .slow])
        XCTAssertEqual(slower.legs[0]?.expectedTravelTime, 7 * 60 * 1.25)
    }

    func testAFailedQueryLeavesThatLegEmptyAndTheRestGoOn() async throws {
        let port = FakeRoutingPort(legs: { query in
            if query.mode == .transit { throw RoutingError.noRoute("no bus today") }
            return try Self.script(query)
        })
        let result = try await Planner(routing: port, clock: clock).computeLegsReporting(try transitPlan())
        XCTAssertNotNil(result.plan.legs[0])
        XCTAssertNil(result.plan.legs[1])
        XCTAssertNotNil(result.plan.legs[2])
        XCTAssertEqual(result.failures, [SegmentFailure(segment: 1, error: .noRoute("no bus today"))])
        XCTAssertNil(result.plan.totalTravelTime)
    }

    func testTransitUnsupportedInTheRegionDoesNotStopWalkOrCarLegs() async throws {
        let plan = try RoutePlan(nodes: [Fixture.home, Fixture.stopA, Fixture.stopB, Fixture.office].map { PlanNode(place: $0) },
                                 modes: [.car, .transit, .walk])
        let port = FakeRoutingPort(legs: { query in
            if query.mode == .transit { throw RoutingError.unsupportedInRegion("no feed here") }
            return try Self.script(query)
        })
        let result = try await Planner(routing: port, clock: clock).computeLegsReporting(plan)
        XCTAssertEqual(result.plan.legs.map { $0 != nil }, [true, false, true])
        XCTAssertEqual(result.failures.map(\.error.code), ["unsupported_in_region"])
    }

    func testAnEngineErrorOfAnotherTypeBecomesAnEngineFailureForThatLeg() async throws {
        struct Boom: Error {}
        let port = FakeRoutingPort(legs: { query in
            if query.mode == .transit { throw Boom() }
            return try Self.script(query)
        })
        let result = try await Planner(routing: port, clock: clock).computeLegsReporting(try transitPlan())
        XCTAssertEqual(result.failures.map(\.error.code), ["engine_failure"])
        XCTAssertNotNil(result.plan.legs[2])
    }

    func testCurrentLocationNodesResolveToTheLatestFixBeforeQuerying() async throws {
        let here = PlanNode(place: Place(name: "Current location", coordinate: Fixture.home.coordinate), isCurrentLocation: true)
        let plan = try RoutePlan(nodes: [here, PlanNode(place: Fixture.office)], modes: [.car])
        let port = FakeRoutingPort(legs: Self.script)
        let fix = Fixture.stopA.coordinate
        let computed = try await Planner(routing: port, clock: clock).computeLegs(plan, currentLocation: fix)
        let from = await port.queries.first?.from.coordinate
        XCTAssertEqual(from, fix)
        XCTAssertEqual(computed.nodes[0].place.coordinate, fix)
    }
}
