import XCTest
@testable import Planner

/// A ride asked between stops inferred for the traveller carries the places they walk from and
/// to (`TravellerEnds`): the engine measures its access radius from those, so depart-at and
/// arrive-by see the stops a search from the door sees (issue 39 item 1: asked from the
/// inferred stop Tohlopinjärvi, a ride alighted 849 m from the destination), and the walk to
/// (from) it already asked, so that the ride is searched from (to) the place itself.
final class RideAskedWithinReachOfTheTravellerTests: XCTestCase {
    func testTheRideBetweenInferredStopsIsAskedWithThePlacesWalkedFromAndTo() async throws {
        for preference in [TimePreference.departAt(Fixture.at(0)), .arriveBy(Fixture.at(60))] {
            let port = FakeRoutingPort(legs: ComputeLegsTests.script)
            let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                                             PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                                     modes: [.walk, .transit, .walk], timePreference: preference)
            let computed = try await Planner(routing: port, clock: FixedClock(instant: Fixture.morning)).computeLegs(plan)
            let rides = await port.queries.filter { $0.mode == .transit }
            XCTAssertFalse(rides.isEmpty)
            // The walk asked before the ride, at the end the plan is timed from, goes with it.
            let forward = if case .departAt = preference { true } else { false }
            var known = TravellerEnds(origin: Fixture.home.coordinate, destination: Fixture.office.coordinate,
                                      originWalk: forward ? computed.legs[0]?.expectedTravelTime : nil,
                                      destinationWalk: forward ? nil : computed.legs[2]?.expectedTravelTime)
            // The walk on the other side, asked after the ride, is the router's to ask first.
            (known.asksOriginWalk, known.asksDestinationWalk) = (!forward, forward)
            XCTAssertNotNil(forward ? known.originWalk : known.destinationWalk)
            for ride in rides {
                XCTAssertEqual(ride.travellerEnds, known, "\(preference)")
            }
            let walks = await port.queries.filter { $0.mode == .walk }
            XCTAssertTrue(walks.allSatisfy { $0.travellerEnds == TravellerEnds() })
        }
    }

    func testAStopTheUserChoseIsTheTravellersOwnEnd() async throws {
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA),
                                         PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .transit, .walk], timePreference: .departAt(Fixture.at(0)))
        _ = try await Planner(routing: port, clock: FixedClock(instant: Fixture.morning)).computeLegs(plan)
        let queries = await port.queries
        let ride = try XCTUnwrap(queries.first { $0.mode == .transit })
        var expected = TravellerEnds(origin: nil, destination: Fixture.office.coordinate)
        expected.asksDestinationWalk = true
        XCTAssertEqual(ride.travellerEnds, expected)
    }

    func testAStopIsReachedWithinTheRadiusOfThePlaceOrNoFartherThanTheStopAskedFrom() {
        let place = Fixture.home.coordinate, near = Fixture.stopA.coordinate  // 400 m east
        let far = Fixture.place("Far", east: 849).coordinate
        XCTAssertTrue(TravellerEnds.reaches(near, askedFrom: near, place: place, radius: 800))
        XCTAssertFalse(TravellerEnds.reaches(far, askedFrom: near, place: place, radius: 800), "849 m from the place")
        XCTAssertTrue(TravellerEnds.reaches(far, askedFrom: near, place: nil, radius: 800), "no place: the stop's own radius")
        XCTAssertTrue(TravellerEnds.reaches(far, askedFrom: far, place: place, radius: 800), "the inferred stop itself stays")
        // Beyond the radius, the stop across the road from the inferred one too (trial 55: 860 m against 852 m).
        let across = Fixture.place("Across", east: 849 + 60).coordinate, beyond = Fixture.place("Beyond", east: 849 + 150).coordinate
        XCTAssertTrue(TravellerEnds.reaches(across, askedFrom: far, place: place, radius: 800), "60 m past a stop 849 m away")
        XCTAssertFalse(TravellerEnds.reaches(beyond, askedFrom: far, place: place, radius: 800), "150 m past it")
        XCTAssertFalse(TravellerEnds.reaches(across, askedFrom: near, place: place, radius: 800), "past the radius from a stop within it")
    }
}
