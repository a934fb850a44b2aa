import XCTest
@testable import Planner

/// Building plans from two ends, comparing modes, rebuilding and measured presets.
final class PlanBuilderTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    static let busStopNearHome = Fixture.place("Hallila bus stop", east: 200, kind: .transitStop)
    static let stationNearHome = Fixture.place("Central Station", east: 700, kind: .transitStop)
    static let far = Fixture.place("Far Town", east: 60_000)
    static let stopNearFar = Fixture.place("Far Town station", east: 59_700, kind: .transitStop)

    static let allStops = [Fixture.stopA, Fixture.stopB, busStopNearHome, stationNearHome, stopNearFar]

    /// Walk 80 m/min, bike 250 m/min, car 600 m/min, transit 400 m/min leaving at the asked time.
    static func legs(_ query: LegQuery) throws -> RouteLeg {
        let metres = query.from.coordinate.distance(to: query.to.coordinate)
        switch query.mode {
        case .walk: return Fixture.walk(metres / 80, metres: metres)
        case .car: return Fixture.car(metres / 600, metres: metres)
        case .bike: return Fixture.bike(metres / 250, metres: metres)
        case .transit:
            return Fixture.transit(departing: PinnedDepartureTests.departure(query.timing), minutes: metres / 400, metres: metres)
        }
    }

    func port(transit: FakeRoutingPort.LegScript? = nil) -> FakeRoutingPort {
        FakeRoutingPort(stops: RefinementTests.stops(Self.allStops), legs: { query in
            if query.mode == .transit, let transit { return try transit(query) }
            return try Self.legs(query)
        })
    }

    func testATransitPlanInsertsTheNearestStopAtEachEndAsInferred() async throws {
        let plan = try await Planner(routing: port(), clock: clock)
            .buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Hallila bus stop", "Stop B", "Office"])
        XCTAssertEqual(plan.nodes.map(\.isInferred), [false, true, true, false])
        XCTAssertEqual(plan.modes, [.walk, .transit, .walk])
        XCTAssertTrue(plan.legs.allSatisfy { $0 != nil })
    }

    func testALongTripPrefersATrainStationOverANearerBusStop() async throws {
        let plan = try await Planner(routing: port(), clock: clock)
            .buildPlan(from: Fixture.home, to: Self.far, preset: .transit, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(plan.nodes[1].place.name, "Central Station")
    }

    func testAnEndThatIsAlreadyAStopGetsNoInsertedStop() async throws {
        let plan = try await Planner(routing: port(), clock: clock)
            .buildPlan(from: Fixture.stopA, to: Fixture.office, preset: .transit, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Stop A", "Stop B", "Office"])
        XCTAssertEqual(plan.modes, [.transit, .walk])
    }

    func testWithoutNearbyStopsTheTransitPlanIsDoorToDoor() async throws {
        let port = FakeRoutingPort(legs: Self.legs)
        let plan = try await Planner(routing: port, clock: clock)
            .buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(plan.nodes.count, 2)
        XCTAssertEqual(plan.modes, [.transit])
    }

    func testWalkAndCarPlansAreTheTwoEnds() async throws {
        let planner = Planner(routing: port(), clock: clock)
        for preset in [PlanPreset.walk, .car] {
            let plan = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: preset,
                                                   timePreference: .departAt(Fixture.at(10)), pace: .fast)
            XCTAssertEqual(plan.nodes.map(\.place), [Fixture.home, Fixture.office])
            XCTAssertEqual(plan.modes, [preset.mode])
            XCTAssertEqual(plan.pace, .fast)
            XCTAssertEqual(plan.timePreference, .departAt(Fixture.at(10)))
            XCTAssertNotNil(plan.legs[0])
        }
    }

    func testBuildingFromAnInvalidOrIdenticalPlaceThrowsBeforeAnyQuery() async throws {
        let port = port()
        let planner = Planner(routing: port, clock: clock)
        let bad = Place(name: "bad", coordinate: Coordinate(latitude: 0, longitude: 200))
        do {
            _ = try await planner.buildPlan(from: bad, to: Fixture.office, preset: .transit, timePreference: .leaveNow, pace: .normal)
            XCTFail("expected invalid_coordinate")
        } catch let error as PlannerError {
            XCTAssertEqual(error.code, "invalid_coordinate")
        }
        do {
            _ = try await planner.buildPlan(from: Fixture.home, to: Fixture.home, preset: .walk, timePreference: .leaveNow, pace: .normal)
            XCTFail("expected same_place_twice")
        } catch let error as PlannerError {
            XCTAssertEqual(error.code, "same_place_twice")
        }
        let total = await port.totalQueries
        XCTAssertEqual(total, 0)
    }

    func testCompareGivesWalkTransitCarAndBikeAndMarksTheFastest() async throws {
        let comparisons = try await Planner(routing: port(), clock: clock)
            .compare(from: Fixture.home, to: Fixture.office, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(comparisons.map(\.mode), [.walk, .transit, .car, .bike])
        XCTAssertTrue(comparisons.allSatisfy { $0.plan != nil })
        XCTAssertEqual(comparisons[3].plan?.modes, [.bike], "the bike option rides the whole way")
        XCTAssertEqual(comparisons.filter(\.isFastest).map(\.mode), [.car])
    }

    func testTransitUnsupportedInTheRegionDoesNotStopTheWalkAndCarComparison() async throws {
        let port = port(transit: { _ in throw RoutingError.unsupportedInRegion("no feed covers this area") })
        let comparisons = try await Planner(routing: port, clock: clock)
            .compare(from: Fixture.home, to: Fixture.office, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(comparisons[1].error?.code, "unsupported_in_region")
        XCTAssertNotNil(comparisons[0].plan)
        XCTAssertNotNil(comparisons[2].plan)
        XCTAssertNotNil(comparisons[3].plan)
        XCTAssertEqual(comparisons.filter(\.isFastest).map(\.mode), [.car])
    }

    /// Issue 43: a walk (bike ride) between ends farther apart than its limit is `too_far`, asked of no engine.
    func testAModeBeyondItsStraightLineLimitIsTooFarWithoutAQuery() async throws {
        let port = FakeRoutingPort { query in .init(mode: query.mode, expectedTravelTime: 3_600, distance: 45_000) }
        var configuration = PlannerConfiguration()
        configuration.comparedDistanceLimits = [.walk: 30_000, .bike: 40_000]
        let town = Fixture.place("Next town", east: 35_000)
        let comparisons = try await Planner(routing: port, clock: clock, configuration: configuration)
            .compare(from: PlanNode(place: Fixture.home), to: PlanNode(place: town), timePreference: .leaveNow, pace: .normal,
                     modes: [.walk, .car, .bike])
        guard case let .tooFar(mode, straightLine, limit)? = comparisons[0].error else {
            return XCTFail("\(comparisons[0])")
        }
        XCTAssertEqual(mode, .walk)
        XCTAssertEqual(straightLine, 35_000, accuracy: 50)
        XCTAssertEqual(limit, 30_000)
        XCTAssertNotNil(comparisons[1].plan)
        XCTAssertNotNil(comparisons[2].plan, "35 km is within the bike's 40")
        let asked = await port.queries.map(\.mode)
        XCTAssertFalse(asked.contains(.walk), "\(asked)")
    }

    func testWhenEveryModeFailsNothingIsFastestAndTheFastestPresetThrows() async throws {
        let port = FakeRoutingPort(legs: { _ in throw RoutingError.noRoadNearby("in the sea") })
        let planner = Planner(routing: port, clock: clock)
        let comparisons = try await planner.compare(from: Fixture.home, to: Fixture.office, timePreference: .leaveNow, pace: .normal)
        XCTAssertTrue(comparisons.allSatisfy { $0.error?.code == "no_road_nearby" && !$0.isFastest })
        do {
            _ = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .fastest,
                                            timePreference: .leaveNow, pace: .normal)
            XCTFail("expected no_mode_available")
        } catch let error as PlannerError {
            XCTAssertEqual(error, .noModeAvailable)
        }
    }

    func testTheFastestPresetBuildsTheQuickestMode() async throws {
        let plan = try await Planner(routing: port(), clock: clock)
            .buildPlan(from: Fixture.home, to: Fixture.office, preset: .fastest, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(plan.modes, [.car])
    }

    func testRebuildStartsAgainFromTheTwoEndsKeepingTimeAndPace() async throws {
        let planner = Planner(routing: port(), clock: clock)
        var plan = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit,
                                               timePreference: .departAt(Fixture.at(30)), pace: .slow)
        plan = try plan.changingMode(ofSegment: 1, to: .car)
        let rebuilt = try await planner.rebuild(plan, preset: .walk)
        XCTAssertEqual(rebuilt.nodes.map(\.place), [Fixture.home, Fixture.office])
        XCTAssertEqual(rebuilt.modes, [.walk])
        XCTAssertTrue(rebuilt.locks.isEmpty)
        XCTAssertEqual(rebuilt.timePreference, .departAt(Fixture.at(30)))
        XCTAssertEqual(rebuilt.pace, .slow)
    }

    func testTheMeasuredFastestPresetKeepsLockedSegmentsAndPicksTheQuickestVariant() async throws {
        let planner = Planner(routing: port(), clock: clock)
        var plan = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit,
                                               timePreference: .leaveNow, pace: .normal)
        plan = try plan.changingMode(ofSegment: 0, to: .walk)
        let fastest = try await planner.applyingPreset(.fastest, to: plan)
        // Stop A stays with the locked walk; stop B served only transit and goes with it.
        XCTAssertEqual(fastest.nodes.count, 3)
        XCTAssertTrue(fastest.nodes[1].isInferred)
        XCTAssertEqual(fastest.modes, [.walk, .car])
        XCTAssertNotNil(fastest.totalTravelTime)
    }

    func testACurrentLocationOriginIsBuiltFromTheLatestFix() async throws {
        let here = PlanNode(place: Place(name: "Current location", coordinate: Coordinate(latitude: 0, longitude: 0)),
                            isCurrentLocation: true)
        let plan = try await Planner(routing: port(), clock: clock)
            .buildPlan(from: here, to: PlanNode(place: Fixture.office), preset: .car, timePreference: .leaveNow, pace: .normal,
                       currentLocation: Fixture.home.coordinate)
        XCTAssertEqual(plan.nodes[0].place.coordinate, Fixture.home.coordinate)
        XCTAssertTrue(plan.nodes[0].isCurrentLocation)
    }
}
