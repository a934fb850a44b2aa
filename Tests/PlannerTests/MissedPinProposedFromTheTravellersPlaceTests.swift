import XCTest
@testable import Planner

/// Session 60, F3: a pin the traveller misses is proposed from where they are, the place they
/// walk to its inferred stop from, not from that stop, chosen for the ride missed: another stop
/// around the place may have the next ride (Keskustori L's bus 33 at 09:00, where Keskustori E's
/// next was bus 9 at 09:10).
final class MissedPinProposedFromTheTravellersPlaceTests: XCTestCase {
    func testAMissedPinsProposalIsAskedFromThePlaceTheWalkToItsStopLeaves() async throws {
        let clock = FixedClock(instant: Fixture.morning)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                                         PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .transit, .walk])
        let computed = try await Planner(routing: FakeRoutingPort(legs: ComputeLegsTests.script), clock: clock).computeLegs(plan)
        // The bus at 08:20 pinned, then the plan leaves at 08:30: at Stop A at 08:37, it is missed.
        let later = try computed.pinningDeparture(ofSegment: 1).settingTimePreference(.departAt(Fixture.at(30)))
        // Asked from Stop A, the next bus leaves 08:50; asked from Home (the walk to Stop A known),
        // a bus from a stop nearer Home leaves 4 minutes after the traveller does.
        let port = FakeRoutingPort(legs: { query in
            if query.mode == .transit, case .departAt(let time) = query.timing, let walk = query.travellerEnds.originWalk {
                return Fixture.transit(departing: time.addingTimeInterval(4 * 60 - walk), minutes: 20)
            }
            return try ComputeLegsTests.script(query)
        })
        let recomputed = try await Planner(routing: port, clock: clock).computeLegs(later)
        XCTAssertEqual(recomputed.missedConnection(leavingAt: Fixture.at(30)), 1)
        guard case .ride(let proposed) = recomputed.pendingUpdate(ofSegment: 1)?.proposal else {
            return XCTFail("a ride proposed: \(String(describing: recomputed.pendingUpdate(ofSegment: 1)))")
        }
        XCTAssertEqual(proposed.departure, Fixture.at(34), "the bus the traveller leaving Home at 08:30 catches, not Stop A's 08:50")
        let asked = await port.queries.filter { $0.mode == .transit && $0.travellerEnds.originWalk != nil }
        XCTAssertEqual(asked.map(\.travellerEnds.origin), [Fixture.home.coordinate])
        XCTAssertEqual(asked.map(\.travellerEnds.originWalk), [7 * 60], "the walk from Home to Stop A")
    }
}
