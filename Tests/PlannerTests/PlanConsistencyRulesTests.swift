import XCTest
@testable import Planner

/// Rules that keep a plan's stops and times true after every edit (issue 10), on a scripted port.
final class PlanConsistencyRulesTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)
    static let stopC = Fixture.place("Stop C", east: 900, kind: .transitStop)
    static let stopD = Fixture.place("Stop D", east: 9_300, kind: .transitStop)

    /// home -walk- Stop A (inferred) -transit- Stop B (inferred) -walk- office, leaving 08:00.
    func transitPlan() throws -> RoutePlan {
        try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                              PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                      modes: [.walk, .transit, .walk], timePreference: .departAt(Fixture.morning))
    }

    /// Walks of (metres / 80) minutes; transit boards at Stop C at the first of 08:15, 08:30, 08:45
    /// after walking there from the query's start (5 min), rides 20 min to Stop D and walks 4 min
    /// on (no walk from or to Stop C and Stop D themselves); arrive-by takes the last that is in time.
    static func port() -> FakeRoutingPort {
        FakeRoutingPort(legs: { query in
            switch query.mode {
            case .walk, .car, .bike:
                return Fixture.walk(query.from.coordinate.distance(to: query.to.coordinate) / 80)
            case .transit:
                let fromStopC = query.from.name == stopC.name, walkFromStop = query.to.name != stopD.name
                let buses = [15.0, 30, 45].map(Fixture.at)
                switch query.timing {
                case .departAt(let time):
                    let atStop = time.addingTimeInterval(fromStopC ? 0 : 300)
                    guard let board = buses.first(where: { $0 >= atStop }) else { throw RoutingError.noRoute("no bus") }
                    return transitLeg(from: query.from, start: time, board: board, walkToStop: !fromStopC, walkFromStop: walkFromStop)
                case .arriveBy(let time):
                    guard let board = buses.last(where: { $0.addingTimeInterval(20 * 60 + (walkFromStop ? 240 : 0)) <= time }) else {
                        throw RoutingError.noRoute("no bus")
                    }
                    return transitLeg(from: query.from, start: board.addingTimeInterval(fromStopC ? 0 : -300), board: board,
                                      walkToStop: !fromStopC, walkFromStop: walkFromStop)
                }
            }
        })
    }

    static func transitLeg(from: Place, start: Date, board: Date, walkToStop: Bool, walkFromStop: Bool) -> RouteLeg {
        let alight = board.addingTimeInterval(20 * 60)
        let ride = TransitRide(lineName: "3", vehicle: "bus", tripID: "bus-\(Int(board.timeIntervalSince1970))",
                               boarding: TransitStopCall(name: stopC.name, coordinate: stopC.coordinate, time: board),
                               alighting: TransitStopCall(name: stopD.name, coordinate: stopD.coordinate, time: alight))
        var walks: [TransitWalkStep] = []
        if walkFromStop {
            walks.append(TransitWalkStep(kind: .egress, fromName: stopD.name, from: stopD.coordinate, toName: "end",
                                         to: Fixture.stopB.coordinate, start: alight, duration: 240, distance: 300))
        }
        if walkToStop {
            walks.insert(TransitWalkStep(kind: .access, fromName: from.name, from: from.coordinate, toName: stopC.name,
                                         to: stopC.coordinate, start: start, duration: 300, distance: 500), at: 0)
        }
        let departure = walkToStop ? start : board
        let arrival = alight.addingTimeInterval(walkFromStop ? 240 : 0)
        return RouteLeg(mode: .transit, expectedTravelTime: arrival.timeIntervalSince(departure), distance: 8_000,
                        departure: departure, arrival: arrival, rides: [ride], walks: walks)
    }

    // MARK: - Inferred stops become the stops used

    func testInferredStopsBecomeTheStopsTheTransitLegBoardsAndLeavesAt() async throws {
        let port = Self.port()
        let computed = try await Planner(routing: port, clock: clock).computeLegsReporting(try transitPlan())
        let plan = computed.plan
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Stop C", "Stop D", "Office"])
        XCTAssertEqual(plan.nodes.map(\.isInferred), [false, true, true, false])
        let leg = try XCTUnwrap(plan.legs[1])
        XCTAssertEqual(leg.walks.map(\.kind), [], "the walks to and from the stops are the plan's own segments")
        XCTAssertEqual(leg.departure, Fixture.at(15))
        XCTAssertEqual(leg.arrival, Fixture.at(35))
        // The walk to Stop C (900 m: 11.25 min) fits before the 08:15 bus.
        let times = plan.schedule().compactMap { $0 }
        let expected = [Fixture.at(15 - 11.25), Fixture.at(15), Fixture.at(35), Fixture.at(35 + 700 / 80.0)]
        XCTAssertEqual(times.count, 4)
        for (time, wanted) in zip(times, expected) { XCTAssertEqual(time.timeIntervalSince(wanted), 0, accuracy: 1) }
        let asked = await port.askedSegments
        XCTAssertEqual(asked, ["Home→Stop A", "Stop A→Stop B", "Home→Stop C", "Stop D→Office"])
        XCTAssertEqual(computed.queryCount, 4)
    }

    func testANodeTheUserChoseIsNeverMoved() async throws {
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA),
                                         PlanNode(place: Fixture.stopB), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .transit, .walk], timePreference: .departAt(Fixture.morning))
        let computed = try await Planner(routing: Self.port(), clock: clock).computeLegs(plan)
        XCTAssertEqual(computed.nodes.map(\.place.name), ["Home", "Stop A", "Stop B", "Office"])
        XCTAssertEqual(computed.legs[1]?.walks.map(\.kind), [.access, .egress])
    }

    func testAWalkToTheNewStopThatMissesTheBusAsksForTheNextOne() async throws {
        // From "Far" the engine's way to the bus (walk to Stop A, then 5 min to Stop C) makes the
        // 08:30, but the plan's own walk straight to Stop C (30.6 min) does not: the 08:45 is taken.
        let far = Fixture.place("Far", east: -1_550)
        let plan = try RoutePlan(nodes: [PlanNode(place: far), PlanNode(place: Fixture.stopA, isInferred: true),
                                         PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .transit, .walk], timePreference: .departAt(Fixture.morning))
        let port = Self.port()
        let computed = try await Planner(routing: port, clock: clock).computeLegs(plan)
        XCTAssertEqual(computed.nodes.map(\.place.name), ["Far", "Stop C", "Stop D", "Office"])
        XCTAssertEqual(computed.legs[1]?.departure, Fixture.at(45))
        XCTAssertNil(computed.missedConnection(leavingAt: Fixture.morning))
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(computed.schedule()[0]), Fixture.morning)
        // The missed ride is asked again between the stops it was asked between (never from the
        // stop adopted from a ride nobody could catch), later by as much as the walk missed it.
        let asked = await port.askedSegments
        XCTAssertEqual(asked, ["Far→Stop A", "Stop A→Stop B", "Far→Stop C", "Stop A→Stop B", "Far→Stop C",
                               "Stop A→Stop B", "Far→Stop C", "Stop D→Office"])
    }

    // MARK: - Missed connections

    func testAKeptTransitLegThatCanNoLongerBeCaughtIsAskedAgain() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let computed = try await planner.computeLegs(try transitPlan())
        XCTAssertEqual(computed.legs[1]?.departure, Fixture.at(15))
        // A detour on foot before the bus: 20 minutes more.
        let detour = try computed.insertingNode(PlanNode(place: Fixture.place("Detour", east: -800)), at: 1, mode: .walk)
        XCTAssertEqual(detour.missedConnection(leavingAt: Fixture.morning), nil, "walks are not computed yet")
        let port = Self.port()
        let recomputed = try await Planner(routing: port, clock: clock).computeLegs(detour)
        let asked = await port.askedSegments
        XCTAssertEqual(asked, ["Home→Detour", "Detour→Stop C", "Stop C→Stop D"], "the bus is asked again from the stop")
        XCTAssertEqual(recomputed.legs[2]?.departure, Fixture.at(45))
        XCTAssertNil(recomputed.missedConnection(leavingAt: Fixture.morning))
        let times = recomputed.schedule().compactMap { $0 }
        XCTAssertEqual(times, times.sorted())
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(times.first), Fixture.morning)
    }

    func testAPinnedDepartureThatCanNoLongerBeCaughtIsMissedAndTheNextOneProposed() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let pinned = try await planner.computeLegs(try planner.computeLegs(try transitPlan()).pinningDeparture(ofSegment: 1))
        XCTAssertNil(pinned.missedConnection(leavingAt: Fixture.morning))
        let detour = try pinned.insertingNode(PlanNode(place: Fixture.place("Detour", east: -800)), at: 1, mode: .walk)
        let recomputed = try await planner.computeLegs(detour)
        XCTAssertEqual(recomputed.pinnedSegmentIndex, 2)
        XCTAssertEqual(recomputed.legs[2]?.departure, Fixture.at(15), "the user's choice stays")
        XCTAssertEqual(recomputed.missedConnection(leavingAt: Fixture.morning), 2)
        let proposal = try XCTUnwrap(recomputed.pendingUpdate(ofSegment: 2))
        XCTAssertEqual(proposal.latest?.departure, Fixture.at(45), "the next bus of the same length that can be caught")
        // The schedule shows the walks from the requested departure, not back-dated before it.
        XCTAssertEqual(recomputed.schedule()[0], Fixture.morning)
        XCTAssertNil(recomputed.totalTravelTime, "a plan that can't be followed has no total")
        let accepted = try await planner.computeLegs(try recomputed.acceptingPendingUpdate(ofSegment: 2))
        XCTAssertNil(accepted.missedConnection(leavingAt: Fixture.morning))
    }

    /// Buses every 15 min from 08:15 to 11:00, 20 min long, from anywhere; walks of (metres / 80) minutes.
    static func busesEveryQuarterHour() -> FakeRoutingPort {
        FakeRoutingPort(legs: { query in
            query.mode == .transit
                ? try Fixture.timetable(Array(stride(from: 15.0, through: 180, by: 15)), minutes: 20, timing: query.timing)
                : Fixture.walk(query.from.coordinate.distance(to: query.to.coordinate) / 80)
        })
    }

    /// A detour makes the pinned bus unreachable: the first bus is the one the traveller catches
    /// (asked forward from the start, not timed back from the pin to 08:15, before they can be
    /// at its stop: trial 48 F8), and the pin is the connection missed, the next one proposed.
    func testADetourBeforeAPinnedBusCatchesTheFirstBusItCanAndMissesThePinWithTheNextProposed() async throws {
        let planner = Planner(routing: Self.busesEveryQuarterHour(), clock: clock)
        let mid = Fixture.place("Mid", east: 5_000)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA), PlanNode(place: mid),
                                         PlanNode(place: Fixture.office)],
                                 modes: [.walk, .transit, .transit], timePreference: .departAt(Fixture.morning))
        let computed = try await planner.computeLegs(plan)
        XCTAssertEqual([computed.legs[1]?.departure, computed.legs[2]?.departure], [Fixture.at(15), Fixture.at(45)])
        let pinned = try await planner.computeLegs(try computed.pinningDeparture(ofSegment: 2))
        // A 31-minute detour on foot before the first bus: the 08:15 can't be caught, so neither
        // can the pinned 08:45 (the next first bus, 08:45, arrives 09:05).
        let detour = try pinned.insertingNode(PlanNode(place: Fixture.place("Detour", east: 0, north: 1_200)), at: 1, mode: .walk)
        let recomputed = try await planner.computeLegs(detour)
        XCTAssertEqual(recomputed.pinnedSegmentIndex, 3)
        XCTAssertEqual(recomputed.legs[2]?.departure, Fixture.at(45), "the first bus the traveller can catch")
        XCTAssertEqual(recomputed.missedConnection(leavingAt: Fixture.morning), 3, "the pin is the one shown missed")
        let proposal = try XCTUnwrap(recomputed.pendingUpdate(ofSegment: 3), "the pin can't be caught either")
        XCTAssertEqual(proposal.latest?.departure, Fixture.at(75), "the first pinned-length bus after the 09:05 arrival")
        let accepted = try await planner.computeLegs(try recomputed.acceptingPendingUpdate(ofSegment: 3))
        XCTAssertNil(accepted.missedConnection(leavingAt: Fixture.morning))
        XCTAssertEqual(accepted.legs[2]?.departure, Fixture.at(45), "the first bus arrives by the new pin")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(accepted.schedule()[0]), Fixture.morning)
    }

    func testALateBusAfterAPinnedOneInAnArriveByPlanMakesThePinLateAndAnEarlierPinIsProposed() async throws {
        let planner = Planner(routing: Self.busesEveryQuarterHour(), clock: clock)
        let mid = Fixture.place("Mid", east: 5_000), change = Fixture.place("Change", east: 5_400)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA), PlanNode(place: mid),
                                         PlanNode(place: change), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .transit, .walk, .transit], timePreference: .arriveBy(Fixture.at(120)))
        let computed = try await planner.computeLegs(plan)
        XCTAssertEqual([computed.legs[1]?.departure, computed.legs[3]?.departure], [Fixture.at(60), Fixture.at(90)])
        let pinned = try await planner.computeLegs(try computed.pinningDeparture(ofSegment: 1))
        // A 31-minute detour on foot after the pinned 09:00: the 09:30 second bus is missed, and
        // the next one (10:00) arrives at 10:20, after the requested 10:00.
        let detour = try pinned.insertingNode(PlanNode(place: Fixture.place("Detour", east: 5_000, north: 1_200)), at: 3, mode: .walk)
        let late = try await planner.computeLegs(detour)
        XCTAssertEqual(late.pinnedSegmentIndex, 1)
        XCTAssertEqual(late.legs[1]?.departure, Fixture.at(60), "the user's choice stays")
        // Following the pin's proposal, the traveller takes the second bus that arrives in time
        // (10:00 → 09:30): the plan keeps it, and the pin is the one shown late.
        XCTAssertEqual(late.lateConnection(arrivingBy: Fixture.at(120)), 1, "the pin is the one shown late")
        XCTAssertEqual(late.legs[4]?.departure, Fixture.at(90), "the second bus the proposal leaves time for")
        let proposal = try XCTUnwrap(late.pendingUpdate(ofSegment: 1), "the pin is too late")
        XCTAssertEqual(proposal.latest?.departure, Fixture.at(30), "the 08:30 leaves time for the walks and the 09:30 bus")
        let accepted = try await planner.computeLegs(try late.acceptingPendingUpdate(ofSegment: 1))
        XCTAssertNil(accepted.lateConnection(arrivingBy: Fixture.at(120)))
        XCTAssertEqual(accepted.legs[4]?.departure, Fixture.at(90))
        XCTAssertLessThanOrEqual(try XCTUnwrap(accepted.schedule().last ?? nil), Fixture.at(120))
    }

    /// Home -walk- Stop C -transit- Stop D -walk- Office, to arrive by 09:00: the 08:30 bus.
    func arriveByPlan() throws -> RoutePlan {
        try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Self.stopC), PlanNode(place: Self.stopD),
                              PlanNode(place: Fixture.office)],
                      modes: [.walk, .transit, .walk], timePreference: .arriveBy(Fixture.at(60)))
    }

    func testAPinnedDepartureWhoseLaterLegsArriveAfterTheDeadlineIsLateAndAnEarlierOneProposed() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let computed = try await planner.computeLegs(try arriveByPlan())
        XCTAssertEqual(computed.legs[1]?.departure, Fixture.at(30))
        let pinned = try await planner.computeLegs(try computed.pinningDeparture(ofSegment: 1))
        XCTAssertNil(pinned.lateConnection(arrivingBy: Fixture.at(60)))
        XCTAssertNotNil(pinned.totalTravelTime)
        // A detour on foot after the pinned bus: 19 minutes from Stop D to the office, not 8.75.
        let detour = try pinned.insertingNode(PlanNode(place: Fixture.place("Detour", east: 9_300, north: 600)), at: 3, mode: .walk)
        let recomputed = try await planner.computeLegs(detour)
        XCTAssertEqual(recomputed.pinnedSegmentIndex, 1)
        XCTAssertEqual(recomputed.legs[1]?.departure, Fixture.at(30), "the user's choice stays")
        XCTAssertEqual(recomputed.lateConnection(arrivingBy: Fixture.at(60)), 1)
        XCTAssertEqual(recomputed.brokenConnection(now: Fixture.morning), 1)
        XCTAssertNil(recomputed.missedConnection(leavingAt: Fixture.morning), "nothing is missed going forward")
        let proposal = try XCTUnwrap(recomputed.pendingUpdate(ofSegment: 1))
        XCTAssertEqual(proposal.latest?.departure, Fixture.at(15), "the latest bus of the same length that arrives in time")
        // The nodes show the plan as the traveller follows the proposal: the last one when the
        // walks after the 08:15 bus get there (as once it is accepted, below), the one after the
        // late bus before it arrives.
        let times = recomputed.schedule()
        XCTAssertLessThanOrEqual(try XCTUnwrap(times.last ?? nil), Fixture.at(60))
        XCTAssertLessThan(try XCTUnwrap(times[2]), try XCTUnwrap(recomputed.legs[1]?.arrival), "the bus arrives after that")
        XCTAssertNil(recomputed.totalTravelTime, "a plan that can't arrive in time has no total")
        let accepted = try await planner.computeLegs(try recomputed.acceptingPendingUpdate(ofSegment: 1))
        XCTAssertNil(accepted.lateConnection(arrivingBy: Fixture.at(60)))
        XCTAssertEqual(accepted.legs[1]?.departure, Fixture.at(15))
        let arrival = try XCTUnwrap(accepted.schedule().last ?? nil)
        XCTAssertLessThanOrEqual(arrival, Fixture.at(60))
        XCTAssertEqual(try XCTUnwrap(times.last ?? nil).timeIntervalSince(arrival), 0, accuracy: 2, "the proposal followed is the plan accepted")
        let detourMetres: Double = 600 + (700.0 * 700 + 600 * 600).squareRoot()
        XCTAssertEqual(arrival.timeIntervalSince(Fixture.at(35)), detourMetres / 80 * 60, accuracy: 2, "the 08:15 bus, then the walks")
    }

    // MARK: - Pins on walk and car segments

    func testAPinOnACarSegmentFixesItsDepartureAndTheLegsAroundIt() async throws {
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA),
                                         PlanNode(place: Fixture.office)],
                                 modes: [.walk, .car], timePreference: .departAt(Fixture.morning))
        let planner = Planner(routing: FakeRoutingPort(legs: ComputeLegsTests.script), clock: clock)
        let pinned = try await planner.computeLegs(try await planner.pinning(plan, segment: 1, at: Fixture.at(120)))
        XCTAssertEqual(pinned.pinned?.departure, Fixture.at(120))
        XCTAssertEqual(pinned.schedule(), [Fixture.at(120 - 7), Fixture.at(120), Fixture.at(135)])
        XCTAssertEqual(try GoogleMapsLink.build(plan: pinned, segment: 1, timeZone: TimeZone(identifier: "UTC")!).form, .timed)
    }

    // MARK: - Totals

    func testTheTotalRunsFromTheFirstDepartureToTheLastArrivalIncludingWaits() async throws {
        let computed = try await Planner(routing: Self.port(), clock: clock).computeLegs(try transitPlan())
        let times = computed.schedule()
        XCTAssertEqual(computed.totalTravelTime, try XCTUnwrap(times.last ?? nil).timeIntervalSince(try XCTUnwrap(times.first ?? nil)))
    }
}
