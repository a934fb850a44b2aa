import XCTest
@testable import Planner

/// No plan walks to an inferred stop and straight back (issue 28: "walk Metso → Tuulensuu D,
/// then walk Tuulensuu D → Metso").
final class DetourTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)
    static let metso = Fixture.place("Metso", east: 2_000)
    static let tuulensuu = Fixture.place("Tuulensuu D", east: 2_200, kind: .transitStop)

    /// Home -car- Metso -walk- Tuulensuu D (inferred) -walk- Metso (stay 30 min) -car- Office.
    func detourPlan() throws -> RoutePlan {
        var back = PlanNode(place: Self.metso)
        back.stay = .duration(1_800)
        return try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Self.metso),
                                     PlanNode(place: Self.tuulensuu, isInferred: true), back, PlanNode(place: Fixture.office)],
                             modes: [.car, .walk, .walk, .car], timePreference: .departAt(Fixture.morning))
    }

    func testEveryRecomputeLeavesOutAWalkToAnInferredStopAndStraightBack() async throws {
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        let plan = try await Planner(routing: port, clock: clock).computeLegs(try detourPlan())
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Metso", "Office"])
        XCTAssertEqual(plan.modes, [.car, .car])
        XCTAssertEqual(plan.nodes[1].stay, .duration(1_800), "the stay at Metso is kept")
        XCTAssertFalse(plan.hasDetour)
        let asked = await port.askedSegments
        XCTAssertEqual(asked, ["Home→Metso", "Metso→Office"], "the detour is never asked")
    }

    func testADetourBeforeTheDestinationKeepsTheDestination() throws {
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Self.metso),
                                         PlanNode(place: Self.tuulensuu, isInferred: true), PlanNode(place: Self.metso)],
                                 modes: [.car, .walk, .walk]).removingDetours()
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Metso"])
        XCTAssertEqual(plan.modes, [.car])
    }

    func testAStopTheUserChoseOrATransitRideThereIsNotADetour() throws {
        let chosen = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Self.metso),
                                           PlanNode(place: Self.tuulensuu), PlanNode(place: Self.metso), PlanNode(place: Fixture.office)],
                                   modes: [.car, .walk, .walk, .car])
        XCTAssertEqual(chosen.removingDetours(), chosen, "the user's own stop is a visit")
        let riding = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Self.metso),
                                           PlanNode(place: Self.tuulensuu, isInferred: true), PlanNode(place: Self.metso),
                                           PlanNode(place: Fixture.office)],
                                   modes: [.car, .transit, .walk, .car])
        XCTAssertEqual(riding.removingDetours(), riding)
    }

    /// Found by the edit-sequence property test: an edit that makes a detour (here: its walks
    /// already computed) brings the traveller to the bus after it earlier once the detour is
    /// left out, so the bus is asked again from then, as a recompute from scratch would.
    func testLeavingOutADetourAsksTheTransitLegAfterItAgainFromTheEarlierTime() async throws {
        var plan = try RoutePlan(nodes: [PlanNode(place: Self.metso), PlanNode(place: Self.tuulensuu, isInferred: true),
                                         PlanNode(place: Self.metso), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .walk, .transit], timePreference: .departAt(Fixture.at(0)))
        // Back at Metso at 08:10, the 08:20 bus was taken.
        plan.legs = [Fixture.walk(5), Fixture.walk(5), Fixture.transit(departing: Fixture.at(20), minutes: 20)]
        let computed = try await Planner(routing: FakeRoutingPort(legs: ComputeLegsTests.script), clock: clock).computeLegs(plan)
        XCTAssertEqual(computed.nodes.map(\.place.name), ["Metso", "Office"])
        XCTAssertEqual(computed.legs[0]?.departure, Fixture.at(5), "at Metso from 08:00: the 08:05 bus")
    }

    func testLeavingOutADetourDoesNotAskTheTransitLegBeforeItAgainInAPlanTimedForward() async throws {
        // Stop A -bus- Metso -walk- Tuulensuu D (inferred) -walk- Metso -car- Office, leaving at 08:00.
        var plan = try RoutePlan(nodes: [PlanNode(place: Fixture.stopA), PlanNode(place: Self.metso),
                                         PlanNode(place: Self.tuulensuu, isInferred: true), PlanNode(place: Self.metso),
                                         PlanNode(place: Fixture.office)],
                                 modes: [.transit, .walk, .walk, .car], timePreference: .departAt(Fixture.at(0)))
        // The 08:05 bus, as a full recompute takes it: leaving out the detour after it changes nothing before it.
        plan.legs = [Fixture.transit(departing: Fixture.at(5), minutes: 20), Fixture.walk(5), Fixture.walk(5), Fixture.car(15)]
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        let computed = try await Planner(routing: port, clock: clock).computeLegs(plan)
        XCTAssertEqual(computed.nodes.map(\.place.name), ["Stop A", "Metso", "Office"])
        XCTAssertEqual(computed.legs[0]?.departure, Fixture.at(5))
        let asked = await port.queries
        XCTAssertEqual(asked.filter { $0.mode == .transit }.count, 0, "the bus before the detour is not asked again")
    }

    func testLeavingOutADetourDoesNotAskTheTransitLegAfterAPinBeyondIt() async throws {
        // Metso -walk- Tuulensuu D (inferred) -walk- Metso -bus, pinned 08:20- Stop B -bus- Office, leaving at 08:00.
        var plan = try RoutePlan(nodes: [PlanNode(place: Self.metso), PlanNode(place: Self.tuulensuu, isInferred: true),
                                         PlanNode(place: Self.metso), PlanNode(place: Fixture.stopB), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .walk, .transit, .transit], timePreference: .departAt(Fixture.at(0)))
        plan.legs = [Fixture.walk(5), Fixture.walk(5), Fixture.transit(departing: Fixture.at(20), minutes: 20), nil]
        plan = try plan.pinningDeparture(ofSegment: 2)
        // The bus after the pin leaves from its 08:40 arrival: the 08:50 one.
        plan.legs[3] = Fixture.transit(departing: Fixture.at(50), minutes: 20)
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        let computed = try await Planner(routing: port, clock: clock).computeLegs(plan)
        XCTAssertEqual(computed.nodes.map(\.place.name), ["Metso", "Stop B", "Office"])
        XCTAssertEqual(computed.legs[1]?.departure, Fixture.at(50))
        let asked = await port.askedSegments
        XCTAssertFalse(asked.contains("Stop B→Office"), "the bus after the pin is timed from the pin, not the detour: \(asked)")
    }
}
