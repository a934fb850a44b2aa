import Foundation
@testable import Planner
import XCTest

/// A ride asked between two inferred stops that boards at the second and alights beyond it
/// (trial 60 F8: the place's nearest stop across a lake, the ride asked from the place boarding
/// at the stop inferred for the destination) takes both its stops: the alighting stop replaces
/// the node after the ride, which frees its place for the boarding stop. Adopted one at a time,
/// the boarding stop was refused as the same place twice and the plan walked to the far stop.
final class RideBoardingAtTheStopInferredAfterItTests: XCTestCase {
    func testBothStopsAreAdoptedWhenTheRideBoardsAtTheStopInferredAfterIt() throws {
        let across = Fixture.place("Across the lake", east: 700, kind: .transitStop)
        let near = Fixture.place("Near the destination", east: 1_500, kind: .transitStop)
        let beyond = Fixture.place("Beyond", east: 2_000, kind: .transitStop)
        let destination = Fixture.place("Destination", east: 1_600)
        let boards = Fixture.at(13), alights = Fixture.at(15)
        let ride = TransitRide(lineName: "13", vehicle: "bus", tripID: "t13",
                               boarding: TransitStopCall(name: near.name, coordinate: near.coordinate, time: boards),
                               alighting: TransitStopCall(name: beyond.name, coordinate: beyond.coordinate, time: alights))
        let leg = RouteLeg(mode: .transit, expectedTravelTime: 15 * 60, distance: 2_300, departure: Fixture.at(0), arrival: Fixture.at(17),
                           rides: [ride],
                           walks: [TransitWalkStep(kind: .access, fromName: across.name, from: across.coordinate, toName: near.name,
                                                   to: near.coordinate, start: Fixture.at(0), duration: 0, distance: 1_200),
                                   TransitWalkStep(kind: .egress, fromName: beyond.name, from: beyond.coordinate, toName: near.name,
                                                   to: near.coordinate, start: alights, duration: 120, distance: 490)])
        var plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: across, isInferred: true),
                                         PlanNode(place: near, isInferred: true), PlanNode(place: destination)],
                                 modes: [.walk, .transit, .walk], timePreference: .departAt(Fixture.at(0)))
        plan.legs = [Fixture.walk(40), leg, Fixture.walk(2)]

        let (adopted, emptied) = plan.adoptingTransitStops(ofSegment: 1)
        XCTAssertEqual(adopted.nodes.map(\.place.name), ["Home", near.name, beyond.name, destination.name])
        XCTAssertEqual(emptied, [0, 2], "both walks are asked again, to and from the ride's own stops")
        let trimmed = try XCTUnwrap(adopted.legs[1])
        XCTAssertEqual(trimmed.departure, boards, "the ride starts where it boards")
        XCTAssertEqual(trimmed.arrival, alights, "and ends where it alights")
        XCTAssertTrue(trimmed.walks.isEmpty, "\(trimmed.walks)")
    }
}
