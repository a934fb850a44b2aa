import XCTest
@testable import Planner

/// `refine(depth:)`: split long walks and long transit legs only where it is really faster.
final class RefinementTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    static let nearHome = Fixture.place("Stop Doorstep", east: 100, kind: .transitStop)
    static let middle = Fixture.place("Stop M", east: 5_000, kind: .transitStop)

    /// Stops within `radius` of the query point, nearest first.
    static func stops(_ all: [Place]) -> FakeRoutingPort.StopScript {
        { point, radius, _ in
            all.filter { $0.coordinate.distance(to: point) <= radius }
                .sorted { $0.coordinate.distance(to: point) < $1.coordinate.distance(to: point) }
        }
    }

    /// Walking at 80 m/min; transit from a table of (from, to) → (departure minutes, duration).
    static func legs(_ lines: [String: ([Double], Double)]) -> FakeRoutingPort.LegScript {
        { query in
            switch query.mode {
            case .walk, .car, .bike:
                return Fixture.walk(query.from.coordinate.distance(to: query.to.coordinate) / 80)
            case .transit:
                guard let (departures, minutes) = lines["\(query.from.name)→\(query.to.name)"] else {
                    throw RoutingError.noRoute("no line")
                }
                return try Fixture.timetable(departures, minutes: minutes, timing: query.timing)
            }
        }
    }

    func walkPlan(minutes: Double) throws -> RoutePlan {
        try RoutePlan(restoring: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office)], modes: [.walk],
                      legs: [Fixture.walk(minutes)], timePreference: .departAt(Fixture.morning), pace: .normal,
                      locks: [:], pinned: nil, pending: [:])
    }

    func transitPlan(direct: RouteLeg) throws -> RoutePlan {
        try RoutePlan(restoring: [PlanNode(place: Fixture.stopA), PlanNode(place: Fixture.stopB)], modes: [.transit],
                      legs: [direct], timePreference: .departAt(Fixture.morning), pace: .normal,
                      locks: [:], pinned: nil, pending: [:])
    }

    let busEveryTenMinutes: [String: ([Double], Double)] = ["Stop A→Stop B": ([0, 10, 20, 30, 40], 15)]

    // MARK: - Long walks

    func testTwoLongWalksBetweenTheSamePlacesAreEachProbed() async throws {
        // No line and no stop anywhere: each long walk is probed (one whole-walk query) and kept.
        let port = FakeRoutingPort(stops: Self.stops([]), legs: Self.legs([:]))
        let plan = try RoutePlan(restoring: [Fixture.home, Fixture.office, Fixture.home, Fixture.office].map { PlanNode(place: $0) },
                                 modes: [.walk, .walk, .walk], legs: [Fixture.walk(125), Fixture.walk(125), Fixture.walk(125)],
                                 timePreference: .departAt(Fixture.morning), pace: .normal, locks: [:], pinned: nil, pending: [:])
        _ = try await Planner(routing: port, clock: clock).refineCounting(plan, depth: 1)
        let asked = await port.queries.filter { $0.mode == .transit }.map { "\($0.from.name)→\($0.to.name)" }
        XCTAssertEqual(asked, ["Home→Office", "Office→Home", "Home→Office"])
    }

    func testALongWalkIsReplacedByWalkTransitWalkWhenMuchFaster() async throws {
        let port = FakeRoutingPort(stops: Self.stops([Self.nearHome, Fixture.stopA, Fixture.stopB]),
                                   legs: Self.legs(busEveryTenMinutes))
        let planner = Planner(routing: port, clock: clock)
        let plan = try await planner.refine(try walkPlan(minutes: 125))
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Stop A", "Stop B", "Office"])
        XCTAssertEqual(plan.nodes.map(\.isInferred), [false, true, true, false])
        XCTAssertEqual(plan.modes, [.walk, .transit, .walk])
        XCTAssertNotNil(plan.legs[0], "the measured walks are kept")
        XCTAssertNotNil(plan.legs[2])
        XCTAssertNil(plan.legs[1], "the ride is asked again from the plan's own time, as a full recompute would")
        // Leave at 08:05, walk 5 min, the 08:10 bus to 08:25, 5 min walk: 25 min door to door.
        let computed = try await planner.computeLegs(plan)
        XCTAssertEqual(try XCTUnwrap(computed.totalTravelTime), 25 * 60, accuracy: 0.01)
    }

    func testStopsWithin150MetresOfTheWalksEndsAreNotCandidates() async throws {
        let port = FakeRoutingPort(stops: Self.stops([Self.nearHome, Fixture.stopA, Fixture.stopB]),
                                   legs: Self.legs(busEveryTenMinutes))
        _ = try await Planner(routing: port, clock: clock).refine(try walkPlan(minutes: 125))
        let asked = await port.queries.flatMap { [$0.from.name, $0.to.name] }
        XCTAssertFalse(asked.contains(Self.nearHome.name))
    }

    func testStopsOfTheWholeWalkJourneyWithin150MetresOfTheWalksEndsAreNotCandidates() async throws {
        // The whole-walk journey boards at the doorstep stop (100 m from Home): the nearest stops
        // outside 150 m are tried instead, as on the other path.
        let doorstep = TransitStopCall(name: Self.nearHome.name, coordinate: Self.nearHome.coordinate, time: Fixture.at(2))
        let far = TransitStopCall(name: Fixture.stopB.name, coordinate: Fixture.stopB.coordinate, time: Fixture.at(20))
        let table = Self.legs(busEveryTenMinutes)
        let port = FakeRoutingPort(stops: Self.stops([Self.nearHome, Fixture.stopA, Fixture.stopB]), legs: { query in
            guard query.mode == .transit, query.from.name == "Home" else { return try table(query) }
            return RouteLeg(mode: .transit, expectedTravelTime: 23 * 60, departure: Fixture.at(0), arrival: Fixture.at(23),
                            rides: [TransitRide(lineName: "1", vehicle: "bus", boarding: doorstep, alighting: far)])
        })
        let plan = try await Planner(routing: port, clock: clock).refine(try walkPlan(minutes: 125))
        XCTAssertFalse(plan.nodes.contains { $0.place.name == Self.nearHome.name })
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Stop A", "Stop B", "Office"])
    }

    func testASplitSavingLessThanThreeMinutesIsNotInserted() async throws {
        let port = FakeRoutingPort(stops: Self.stops([Fixture.stopA, Fixture.stopB]), legs: Self.legs(busEveryTenMinutes))
        let planner = Planner(routing: port, clock: clock)
        let almost = try await planner.refine(try walkPlan(minutes: 32.9))
        XCTAssertEqual(almost.nodes.count, 2, "30 min is only 2.9 min faster")
        let enough = try await planner.refine(try walkPlan(minutes: 33))
        XCTAssertEqual(enough.nodes.count, 4, "30 min is exactly 3 min faster")
    }

    func testAWalkOfFifteenMinutesOrLessIsNotProbed() async throws {
        let port = FakeRoutingPort(stops: Self.stops([Fixture.stopA, Fixture.stopB]), legs: Self.legs(busEveryTenMinutes))
        let plan = try await Planner(routing: port, clock: clock).refine(try walkPlan(minutes: 15))
        XCTAssertEqual(plan.nodes.count, 2)
        let total = await port.totalQueries
        XCTAssertEqual(total, 0)
    }

    func testLockedSegmentsAreNeverRefined() async throws {
        let port = FakeRoutingPort(stops: Self.stops([Fixture.stopA, Fixture.stopB]), legs: Self.legs(busEveryTenMinutes))
        let locked = try walkPlan(minutes: 125).changingMode(ofSegment: 0, to: .walk)
        let plan = try await Planner(routing: port, clock: clock).refine(locked)
        XCTAssertEqual(plan, locked)
        let total = await port.totalQueries
        XCTAssertEqual(total, 0)
    }

    // MARK: - Transit splits

    func testADirectTrainThatWouldBeSlowerWhenSplitStaysDirect() async throws {
        // Direct 08:00→08:26. Via M: 08:00→08:12, then the next train from M leaves 08:17 → 08:29.
        let lines: [String: ([Double], Double)] = ["Stop A→Stop M": ([0], 12), "Stop M→Stop B": ([2, 17, 32], 12)]
        let port = FakeRoutingPort(stops: Self.stops([Self.middle]), legs: Self.legs(lines))
        let direct = Fixture.transit(departing: Fixture.at(0), minutes: 26)
        let plan = try await Planner(routing: port, clock: clock).refine(try transitPlan(direct: direct))
        XCTAssertEqual(plan.nodes.count, 2)
        XCTAssertEqual(plan.legs[0], direct)
    }

    func testASplitThatWaitsLongerIsNotTakenEvenIfItsRideTimesAreShorter() async throws {
        // 10 + 12 = 22 riding minutes < 26, but waiting at M until 08:20 arrives at 08:32.
        let lines: [String: ([Double], Double)] = ["Stop A→Stop M": ([0], 10), "Stop M→Stop B": ([20], 12)]
        let port = FakeRoutingPort(stops: Self.stops([Self.middle]), legs: Self.legs(lines))
        let plan = try await Planner(routing: port, clock: clock)
            .refine(try transitPlan(direct: Fixture.transit(departing: Fixture.at(0), minutes: 26)))
        XCTAssertEqual(plan.nodes.count, 2)
    }

    func testASplitThatIsNotSlowerIsTakenWithTheSecondLegDepartingAtTheFirstsArrival() async throws {
        let lines: [String: ([Double], Double)] = ["Stop A→Stop M": ([0], 12), "Stop M→Stop B": ([12, 30], 12)]
        let port = FakeRoutingPort(stops: Self.stops([Self.middle]), legs: Self.legs(lines))
        let plan = try await Planner(routing: port, clock: clock)
            .refine(try transitPlan(direct: Fixture.transit(departing: Fixture.at(0), minutes: 26)))
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Stop A", "Stop M", "Stop B"])
        XCTAssertTrue(plan.nodes[1].isInferred)
        XCTAssertEqual(plan.modes, [.transit, .transit])
        let timings = await port.queries.map(\.timing)
        XCTAssertEqual(timings, [.departAt(Fixture.at(0)), .departAt(Fixture.at(12))])
    }

    func testASplitThatOnlyTiesTheDirectLegIsNotTaken() async throws {
        // Via M: 08:00→08:12, then 08:12→08:26: the same arrival as the direct leg, one more change.
        let lines: [String: ([Double], Double)] = ["Stop A→Stop M": ([0], 12), "Stop M→Stop B": ([12], 14)]
        let port = FakeRoutingPort(stops: Self.stops([Self.middle]), legs: Self.legs(lines))
        let plan = try await Planner(routing: port, clock: clock)
            .refine(try transitPlan(direct: Fixture.transit(departing: Fixture.at(0), minutes: 26)))
        XCTAssertEqual(plan.nodes.count, 2)
    }

    func testASplitRidingTheSameTripOnBothSidesOfTheMiddleIsNotTaken() async throws {
        // The engine boards the trip it came on again at M: the direct ride cut in two.
        let port = FakeRoutingPort(stops: Self.stops([Self.middle]), legs: { query in
            try Fixture.timetable([0, 12], minutes: 12, trip: { _ in "bus-28-0800" }, timing: query.timing)
        })
        let plan = try await Planner(routing: port, clock: clock)
            .refine(try transitPlan(direct: Fixture.transit(departing: Fixture.at(0), minutes: 26)))
        XCTAssertEqual(plan.nodes.count, 2)
    }

    func testSameLineWithoutTripIDsLeavingOnArrivalCountsAsTheSameTrip() {
        let ride = Fixture.transit(departing: Fixture.at(0), minutes: 12, trip: "x")
        var first = ride, second = Fixture.transit(departing: Fixture.at(12), minutes: 12, trip: "y")
        first.rides[0].tripID = nil
        second.rides[0].tripID = nil
        XCTAssertTrue(first.continuesOnSameTrip(into: second))
        second.rides[0].lineName = "28"
        XCTAssertFalse(first.continuesOnSameTrip(into: second))
    }

    func testAPinnedSegmentIsNeverSplitEvenWithoutItsLock() async throws {
        let lines: [String: ([Double], Double)] = ["Stop A→Stop M": ([0], 12), "Stop M→Stop B": ([12, 30], 12)]
        let port = FakeRoutingPort(stops: Self.stops([Self.middle]), legs: Self.legs(lines))
        let direct = Fixture.transit(departing: Fixture.at(0), minutes: 26)
        let pinned = try RoutePlan(restoring: [PlanNode(place: Fixture.stopA), PlanNode(place: Fixture.stopB)], modes: [.transit],
                                   legs: [direct], timePreference: .departAt(Fixture.morning), pace: .normal, locks: [:],
                                   pinned: PinnedDeparture(segment: SegmentKey(fromID: Fixture.stopA.id, toID: Fixture.stopB.id),
                                                           departure: Fixture.at(0), duration: 26 * 60),
                                   pending: [:])
        let plan = try await Planner(routing: port, clock: clock).refine(pinned)
        XCTAssertEqual(plan, pinned)
        let total = await port.totalQueries
        XCTAssertEqual(total, 0)
    }

    func testALockedTransitSegmentIsNeverSplit() async throws {
        let lines: [String: ([Double], Double)] = ["Stop A→Stop M": ([0], 12), "Stop M→Stop B": ([12, 30], 12)]
        let port = FakeRoutingPort(stops: Self.stops([Self.middle]), legs: Self.legs(lines))
        let locked = try transitPlan(direct: Fixture.transit(departing: Fixture.at(0), minutes: 26))
            .changingMode(ofSegment: 0, to: .transit)
        let plan = try await Planner(routing: port, clock: clock).refine(locked)
        XCTAssertEqual(plan, locked)
        let total = await port.totalQueries
        XCTAssertEqual(total, 0)
    }

    func testATransitLegOfTenMinutesOrLessIsNotSplit() async throws {
        let port = FakeRoutingPort(stops: Self.stops([Self.middle]), legs: Self.legs([:]))
        _ = try await Planner(routing: port, clock: clock)
            .refine(try transitPlan(direct: Fixture.transit(departing: Fixture.at(0), minutes: 10)))
        let total = await port.totalQueries
        XCTAssertEqual(total, 0)
    }

    func testAtMostThreeMidpointCandidatesAreTried() async throws {
        let many = (0..<6).map { Fixture.place("Mid \($0)", east: 4_800 + Double($0) * 80, kind: .transitStop) }
        let port = FakeRoutingPort(stops: Self.stops(many), legs: { query in
            try Fixture.timetable([0, 30], minutes: 20, timing: query.timing)
        })
        _ = try await Planner(routing: port, clock: clock)
            .refine(try transitPlan(direct: Fixture.transit(departing: Fixture.at(0), minutes: 26)))
        let middles = Set(await port.queries.map(\.to.name)).subtracting(["Stop B"])
        XCTAssertEqual(middles.count, 3)
    }

    // MARK: - Bounds

    func testTheQueriesOfOneRefinementStayWithinTheDocumentedBound() async throws {
        // A plan full of long walks and long transit legs where nothing ever helps: the worst case.
        let places = (0..<8).map { Fixture.place("P\($0)", east: Double($0) * 3_000) }
        let stops = (0..<80).map { Fixture.place("S\($0)", east: Double($0) * 300 + 200, kind: .transitStop) }
        let modes: [TravelMode] = [.walk, .transit, .walk, .transit, .walk, .transit, .walk]
        let legs: [RouteLeg?] = modes.enumerated().map { index, mode in
            mode == .walk ? Fixture.walk(60) : Fixture.transit(departing: Fixture.at(Double(index) * 100), minutes: 90)
        }
        let plan = try RoutePlan(restoring: places.map { PlanNode(place: $0) }, modes: modes, legs: legs,
                                 timePreference: .departAt(Fixture.morning), pace: .normal, locks: [:], pinned: nil, pending: [:])
        let port = FakeRoutingPort(stops: Self.stops(stops), legs: { query in
            guard query.mode == .transit else { return Fixture.walk(40) }
            return Fixture.transit(departing: PinnedDepartureTests.departure(query.timing), minutes: 90)
        })
        let configuration = PlannerConfiguration()
        let (refined, counted) = try await Planner(routing: port, clock: clock).refineCounting(plan, depth: 2)
        let recorded = await port.totalQueries
        XCTAssertEqual(refined, plan)
        XCTAssertEqual(counted, recorded)
        // Nothing split, so one level ran, and this worst case uses the whole budget of a level.
        XCTAssertEqual(recorded, configuration.maxQueriesPerRefinementLevel)
        XCTAssertEqual(configuration.maxQueriesPerRefinementLevel, 33)
    }

    func testDepthZeroMakesNoQueries() async throws {
        let port = FakeRoutingPort(stops: Self.stops([Fixture.stopA, Fixture.stopB]), legs: Self.legs(busEveryTenMinutes))
        let plan = try walkPlan(minutes: 125)
        let refined = try await Planner(routing: port, clock: clock).refine(plan, depth: 0)
        XCTAssertEqual(refined, plan)
        let total = await port.totalQueries
        XCTAssertEqual(total, 0)
    }
}
