import XCTest
@testable import Planner

/// `schedule()` and the totals: every displayed time comes from here.
final class ScheduleTests: XCTestCase {
    func plan(_ legs: [RouteLeg?], modes: [TravelMode], preference: TimePreference = .leaveNow,
              stays: [Int: NodeStay] = [:]) throws -> RoutePlan {
        let names = ["Home", "Stop A", "Stop B", "Office", "Gym"]
        let nodes = (0...legs.count).map { index in
            var node = PlanNode(place: Fixture.place(names[index], east: Double(index) * 3_000))
            node.stay = stays[index]
            return node
        }
        return try RoutePlan(restoring: nodes, modes: modes, legs: legs, timePreference: preference, pace: .normal,
                             locks: [:], pinned: nil, pending: [:])
    }

    func testAPlanStartingWithAWalkGetsItsDepartureFromTheFirstDatedLeg() throws {
        let p = try plan([Fixture.walk(7), Fixture.transit(departing: Fixture.at(10), minutes: 20), Fixture.walk(5)],
                         modes: [.walk, .transit, .walk])
        XCTAssertEqual(p.schedule(), [Fixture.at(3), Fixture.at(10), Fixture.at(30), Fixture.at(35)])
    }

    func testThePinnedLegAnchorsTheScheduleBeforeAnEarlierDatedLeg() throws {
        var p = try plan([Fixture.transit(departing: Fixture.at(0), minutes: 10), Fixture.walk(5),
                          Fixture.transit(departing: Fixture.at(40), minutes: 10)],
                         modes: [.transit, .walk, .transit])
        p = try p.pinningDeparture(ofSegment: 2)
        // Pinning empties the other legs: only the pinned one is left to anchor the chain.
        XCTAssertEqual(p.schedule(), [nil, nil, Fixture.at(40), Fixture.at(50)])
    }

    /// Issue 39 (trial 47, F8): a ride the traveller gets to after it leaves (here a 60-minute
    /// walk to a 08:20 bus) times no node after it, nor does the ride after it, asked from when
    /// that bus would arrive: no node is shown before the node before it.
    func testNoNodeIsTimedFromARideTheTravellerMisses() throws {
        let p = try plan([Fixture.transit(departing: Fixture.at(0), minutes: 10), Fixture.walk(60),
                          Fixture.transit(departing: Fixture.at(20), minutes: 10), Fixture.transit(departing: Fixture.at(35), minutes: 10)],
                         modes: [.transit, .walk, .transit, .transit])
        XCTAssertEqual(p.schedule(), [Fixture.at(0), Fixture.at(10), Fixture.at(70), nil, nil])
    }

    func testAMissingLegStopsThePropagation() throws {
        let p = try plan([Fixture.walk(7), nil, Fixture.transit(departing: Fixture.at(30), minutes: 10)],
                         modes: [.walk, .car, .transit])
        // The ride after the missing leg was asked from a guess (nobody knows when the
        // traveller gets on): it times no node (issue 39 item 6).
        XCTAssertEqual(p.schedule(), [nil, nil, nil, nil])
        XCTAssertEqual(p.schedule(startingAt: Fixture.at(0)), [Fixture.at(0), Fixture.at(7), nil, nil])
    }

    /// Issue 39 item 6: after a segment with no route the next node was shown an hour before
    /// the previous one is left (timed back from the ride after it, past an hour's stay).
    func testTheNodesAfterAMissingLegShowNoInventedTimes() throws {
        let p = try plan([Fixture.walk(7), nil, Fixture.transit(departing: Fixture.at(20), minutes: 10)],
                         modes: [.walk, .car, .transit], preference: .departAt(Fixture.at(0)), stays: [2: .duration(3600)])
        XCTAssertEqual(p.schedule(), [Fixture.at(0), Fixture.at(7), nil, nil])
        XCTAssertEqual(p.departureTimes(), [Fixture.at(0), Fixture.at(7), nil, nil])
        // The mirror in an arrive-by plan: before a missing leg, nothing is timed from a guess.
        let arrive = try plan([Fixture.transit(departing: Fixture.at(0), minutes: 10), nil, Fixture.walk(5)],
                              modes: [.transit, .car, .walk], preference: .arriveBy(Fixture.at(60)))
        XCTAssertEqual(arrive.schedule(), [nil, nil, Fixture.at(55), Fixture.at(60)])
    }

    func testAPinnedRideAfterAMissingLegStillTimesItsNodes() throws {
        var p = try plan([Fixture.walk(7), nil, Fixture.transit(departing: Fixture.at(30), minutes: 10)],
                         modes: [.walk, .car, .transit], preference: .departAt(Fixture.at(0)))
        p = try p.pinningDeparture(ofSegment: 2)
        XCTAssertEqual(p.schedule()[2...], [Fixture.at(30), Fixture.at(40)], "the user fixed that ride's time")
    }

    func testWithoutDatedLegsDepartAtAnchorsTheFirstNodeAndArriveByTheLast() throws {
        let depart = try plan([Fixture.walk(10), Fixture.car(20)], modes: [.walk, .car], preference: .departAt(Fixture.at(0)))
        XCTAssertEqual(depart.schedule(), [Fixture.at(0), Fixture.at(10), Fixture.at(30)])
        let arrive = try plan([Fixture.walk(10), Fixture.car(20)], modes: [.walk, .car], preference: .arriveBy(Fixture.at(60)))
        XCTAssertEqual(arrive.schedule(), [Fixture.at(30), Fixture.at(40), Fixture.at(60)])
    }

    func testLeaveNowWithoutDatedLegsUsesTheGivenStart() throws {
        let p = try plan([Fixture.walk(10)], modes: [.walk])
        XCTAssertEqual(p.schedule(), [nil, nil])
        XCTAssertEqual(p.schedule(startingAt: Fixture.at(5)), [Fixture.at(5), Fixture.at(15)])
    }

    func testTheTotalIsHiddenWhenALegIsMissing() throws {
        let p = try plan([Fixture.walk(7), nil, Fixture.walk(5)], modes: [.walk, .transit, .walk])
        XCTAssertNil(p.totalTravelTime)
    }

    func testTheTotalRunsFromTheFirstNodesTimeToTheLastNodesTime() throws {
        // The walk is timed backward from the 08:10 departure (leave at 08:03); arrival 08:35.
        let p = try plan([Fixture.walk(7), Fixture.transit(departing: Fixture.at(10), minutes: 20), Fixture.walk(5)],
                         modes: [.walk, .transit, .walk])
        XCTAssertEqual(p.totalTravelTime, 32 * 60)
    }

    func testTheTotalIncludesWaitingForAConnection() throws {
        let p = try plan([Fixture.transit(departing: Fixture.at(0), minutes: 10),
                          Fixture.transit(departing: Fixture.at(20), minutes: 10)], modes: [.transit, .transit])
        XCTAssertEqual(p.totalTravelTime, 30 * 60, "10 + 10 minutes riding and 10 waiting")
    }

    func testTheTotalOfUndatedLegsIsTheirSum() throws {
        let p = try plan([Fixture.walk(7), Fixture.car(13)], modes: [.walk, .car])
        XCTAssertEqual(p.totalTravelTime, 20 * 60)
    }

    func testTheTotalDistanceIsSummedOverKnownDistances() throws {
        let p = try plan([Fixture.walk(7, metres: 500), nil, Fixture.car(5, metres: 4_000)], modes: [.walk, .transit, .car])
        XCTAssertEqual(p.totalDistance, 4_500)
    }
}
