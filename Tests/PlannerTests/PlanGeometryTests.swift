import Foundation
import XCTest
@testable import Planner

/// The lines a plan is drawn and exported with: which part of a leg each one is, in travel order.
final class PlanGeometryTests: XCTestCase {
    /// A walk of 2.4 km that zig-zags by at most 1 m around a straight line with two bends, 600 points.
    func longWalk(from start: Place, to end: Place) -> [Coordinate] {
        let count = 600
        return (0..<count).map { i in
            let t = Double(i) / Double(count - 1)
            let wobble = (i % 2 == 0 ? 0.8 : -0.8) * (i == 0 || i == count - 1 ? 0 : 1)
            let north = 300 * sin(t * .pi) + wobble  // a gentle bow, far more than the tolerance
            let place = Fixture.place("", east: 2_400 * t, north: north)
            return i == 0 ? start.coordinate : i == count - 1 ? end.coordinate : place.coordinate
        }
    }

    func plan(_ legs: [RouteLeg], places: [Place]) throws -> RoutePlan {
        try RoutePlan(restoring: places.map { PlanNode(place: $0) }, modes: legs.map(\.mode), legs: legs,
                      timePreference: .departAt(Fixture.at(0)), pace: .normal, locks: [:], pinned: nil, pending: [:])
    }

    func testSimplifyingAtFiveMetresKeepsEveryLegsEndPointsAndShortensALongWalk() throws {
        let home = Fixture.place("Home", east: 0), shop = Fixture.place("Shop", east: 2_400)
        let office = Fixture.place("Office", east: 3_000)
        var walk = Fixture.walk(30, metres: 2_450)
        walk.geometry = longWalk(from: home, to: shop)
        var car = Fixture.car(2, metres: 600)
        car.geometry = [shop.coordinate, Fixture.place("", east: 2_700, north: 0.5).coordinate, office.coordinate]
        let p = try plan([walk, car], places: [home, shop, office])

        let raw = PlanGeometry(plan: p, times: p.schedule(), toleranceMetres: 0)
        let simplified = PlanGeometry(plan: p, times: p.schedule(), toleranceMetres: 5)
        XCTAssertEqual(raw.lines.map(\.points.count), [600, 3])
        XCTAssertLessThan(simplified.lines[0].points.count, 60, "the wobble goes, the bow stays")
        XCTAssertGreaterThan(simplified.lines[0].points.count, 3, "the bow is drawn, not cut to a straight line")
        XCTAssertEqual(simplified.lines[1].points.count, 2, "a half-metre kink is dropped")
        for (a, b) in zip(raw.lines, simplified.lines) {
            XCTAssertEqual(b.points.first, a.points.first)
            XCTAssertEqual(b.points.last, a.points.last)
        }
        // Every raw point stays within the tolerance of the simplified walk.
        let kept = simplified.lines[0].points
        for point in raw.lines[0].points {
            let nearest = zip(kept, kept.dropFirst()).map { segmentDistanceMetres(point, $0.0, $0.1) }.min() ?? .infinity
            XCTAssertLessThanOrEqual(nearest, 5.01)
        }
    }

    func testATransitLegIsDrawnAsItsWalksAndRidesInTravelOrderThroughItsStops() throws {
        let home = Fixture.place("Home", east: 0), office = Fixture.place("Office", east: 10_000)
        let a = Fixture.place("A", east: 300), b = Fixture.place("B", east: 4_000), b2 = Fixture.place("B2", east: 4_100)
        let mid = Fixture.place("mid", east: 2_000, north: 200), c = Fixture.place("C", east: 9_800)
        func call(_ place: Place, _ minute: Double) -> TransitStopCall {
            TransitStopCall(name: place.name, coordinate: place.coordinate, time: Fixture.at(minute))
        }
        let rides = [TransitRide(lineName: "3", vehicle: "bus", tripID: "t1", boarding: call(a, 5), alighting: call(b, 15)),
                     TransitRide(lineName: "Y1", vehicle: "tram", tripID: "t2", boarding: call(b2, 20), alighting: call(c, 30))]
        let walks = [
            TransitWalkStep(kind: .access, fromName: "Home", from: home.coordinate, toName: "A", to: a.coordinate,
                            start: Fixture.at(1), duration: 240, distance: 300),
            TransitWalkStep(kind: .transfer, fromName: "B", from: b.coordinate, toName: "B2", to: b2.coordinate,
                            start: Fixture.at(15), duration: 120, distance: 100),
            TransitWalkStep(kind: .egress, fromName: "C", from: c.coordinate, toName: "Office", to: office.coordinate,
                            start: Fixture.at(30), duration: 180, distance: 200),
        ]
        let geometry = [home, a, mid, b, b2, c, office].map(\.coordinate)
        let leg = RouteLeg(mode: .transit, expectedTravelTime: 33 * 60, distance: 10_000, departure: Fixture.at(1),
                           arrival: Fixture.at(33), geometry: geometry, rides: rides, walks: walks)
        let p = try plan([leg], places: [home, office])
        let drawn = PlanGeometry(plan: p, times: p.schedule(), toleranceMetres: 0) { ride in
            ride.tripID == "t2" ? PlanGeometry.RideShape(points: [], color: "00985F") : nil
        }
        XCTAssertEqual(drawn.lines.map(\.part), [.walk(0), .ride(0), .walk(1), .ride(1), .walk(2)])
        XCTAssertEqual(drawn.lines.map(\.mode), [.walk, .transit, .walk, .transit, .walk])
        XCTAssertEqual(drawn.lines[1].points, [a, mid, b].map(\.coordinate), "ride 3 through its stops")
        XCTAssertEqual(drawn.lines[3].points, [b2, c].map(\.coordinate))
        XCTAssertEqual(drawn.lines[3].color, "00985F", "the route colour without a shape still colours the ride")
        XCTAssertEqual(drawn.lines[2].points, [b, b2].map(\.coordinate))
        XCTAssertEqual(drawn.lines[1].duration, 600)
        XCTAssertEqual(drawn.lines[4].arrival, Fixture.at(33))

        let shaped = PlanGeometry(plan: p, times: p.schedule(), toleranceMetres: 0) { ride in
            ride.tripID == "t1" ? PlanGeometry.RideShape(points: [a, mid, Fixture.place("", east: 3_000, north: 100), b].map(\.coordinate), color: nil) : nil
        }
        XCTAssertEqual(shaped.lines[1].points.count, 4, "the feed's shape wins over the stops")
    }

    /// A walk at the end of a transit leg timed on the streets is drawn along the street line the
    /// leg's geometry carries (`RouteLeg.withStreetEndWalks`), not as a straight line.
    func testTheWalksAtTheEndsOfARideAreDrawnAlongTheirStreets() throws {
        let home = Fixture.place("Home", east: 0), office = Fixture.place("Office", east: 10_000)
        let a = Fixture.place("A", east: 300), c = Fixture.place("C", east: 9_800)
        let corner = Fixture.place("corner", east: 0, north: 200), round = Fixture.place("round", east: 300, north: 200)
        let ride = TransitRide(lineName: "3", vehicle: "bus", tripID: "t1",
                               boarding: TransitStopCall(name: "A", coordinate: a.coordinate, time: Fixture.at(10)),
                               alighting: TransitStopCall(name: "C", coordinate: c.coordinate, time: Fixture.at(30)))
        let leg = RouteLeg(mode: .transit, expectedTravelTime: 33 * 60, distance: 10_000, departure: Fixture.at(5),
                           arrival: Fixture.at(33), geometry: [home, a, c, office].map(\.coordinate), rides: [ride],
                           walks: [TransitWalkStep(kind: .access, fromName: "Home", from: home.coordinate, toName: "A", to: a.coordinate,
                                                   start: Fixture.at(5), duration: 240, distance: 300),
                                   TransitWalkStep(kind: .egress, fromName: "C", from: c.coordinate, toName: "Office",
                                                   to: office.coordinate, start: Fixture.at(30), duration: 180, distance: 200)])
        let street = RouteLeg(mode: .walk, expectedTravelTime: 500, distance: 700,
                              geometry: [home, corner, round, a].map(\.coordinate))
        let timed = leg.withStreetEndWalks(access: street, egress: nil)
        let p = try plan([timed], places: [home, office])
        let drawn = PlanGeometry(plan: p, times: p.schedule(), toleranceMetres: 0)
        XCTAssertEqual(drawn.lines.map(\.part), [.walk(0), .ride(0), .walk(1)])
        XCTAssertEqual(drawn.lines[0].points, [home, corner, round, a].map(\.coordinate), "round the corner, as the street goes")
        XCTAssertEqual(drawn.lines[1].points, [a, c].map(\.coordinate), "the ride through its stops")
        XCTAssertEqual(drawn.lines[2].points, [c, office].map(\.coordinate), "a walk not timed on the streets: straight")
        XCTAssertEqual(timed.walks[0].distance, 700)
        XCTAssertEqual(timed.departure, Fixture.at(10).addingTimeInterval(-500), "leaving when the street walk must start")
    }
}
