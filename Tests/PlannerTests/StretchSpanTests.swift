import XCTest
@testable import Planner

/// The walk rule judges a stretch's walk and its ride door to door over one span
/// (`Planner.JudgedTimes.span`), both ways alike: timed forward from when the traveller is at its
/// start to when the ride gets there, timed back to the arrival from when the ride leaves to the
/// latest the traveller may be at its end (issue 39: an arrive-by preset judged Tammelan
/// puistokatu → Koskikeskus from when the ride before got the traveller there, 23 min "door to
/// door" for a 16-minute ride, and walked it).
final class StretchSpanTests: XCTestCase {
    static let shop = Fixture.place("Shop", east: 5_000)

    /// Home → Office by the 08:10–08:20 bus, Office → Shop by the 08:40–08:55 bus.
    func twoRides(_ timePreference: TimePreference) throws -> RoutePlan {
        var plan = try RoutePlan(nodes: [Fixture.home, Fixture.office, Self.shop].map { PlanNode(place: $0) },
                                 modes: [.transit, .transit], timePreference: timePreference)
        plan.legs = [RouteLeg(mode: .transit, expectedTravelTime: 600, distance: 3_000, departure: Fixture.at(10), arrival: Fixture.at(20)),
                     RouteLeg(mode: .transit, expectedTravelTime: 900, distance: 4_000, departure: Fixture.at(40), arrival: Fixture.at(55))]
        return plan
    }

    func testAnArriveByStretchIsJudgedFromWhenItsRideLeavesToTheDeadline() throws {
        let plan = try twoRides(.arriveBy(Fixture.at(60)))
        XCTAssertEqual(plan.latestDepartures(), [Fixture.at(10), Fixture.at(40), Fixture.at(60)])
        let times = Planner.JudgedTimes(plan, now: Fixture.morning)
        let second = times.span(of: 1..<2, in: plan), first = times.span(of: 0..<1, in: plan)
        // Not from 08:20, when the first bus gets the traveller to the Office: that wait is the ride's alone.
        XCTAssertEqual(second.leaving, Fixture.at(40))
        XCTAssertEqual(second.arriving, Fixture.at(60), "a ride arriving early counts its wait at the end")
        XCTAssertEqual(first.leaving, Fixture.at(10))
        XCTAssertEqual(first.arriving, Fixture.at(40), "the Office by when the next bus leaves")
    }

    func testADepartAtStretchIsJudgedFromWhenTheTravellerIsAtItsStartToWhenTheRideGetsThere() throws {
        let plan = try twoRides(.departAt(Fixture.morning))
        XCTAssertEqual(plan.latestDepartures(), [nil, nil, nil], "a plan leaving at a time has no deadline")
        let times = Planner.JudgedTimes(plan, now: Fixture.morning)
        let second = times.span(of: 1..<2, in: plan), first = times.span(of: 0..<1, in: plan)
        XCTAssertEqual(second.leaving, Fixture.at(20), "the wait for the 08:40 bus counts")
        XCTAssertEqual(second.arriving, Fixture.at(55))
        XCTAssertEqual(first.leaving, Fixture.morning)
        XCTAssertEqual(first.arriving, Fixture.at(20))
    }
}
