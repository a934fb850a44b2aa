import XCTest
@testable import Planner

/// A pinned journey with a walk from the segment's start to its first stop, kept at a new pace:
/// asked again, the engine answers the journey it prefers from when the slower walk leaves (the
/// same bus without a change worth less than its transfer penalty), not the pinned one. While
/// every trip still calls where and when the pin rides it and every change still holds at the
/// new pace, the pin holds as chosen and nothing is proposed (`Planner.pinnedRideStillRuns`;
/// session 60: bus 6 and bus 17 from Koskipuisto A got "bus 6 at 09:28 instead of bus 6 at 09:28").
final class PinStillRunningAfterItsWalkTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)
    static let (a, b, c, d) = (Fixture.place("a", east: 400, kind: .transitStop), Fixture.place("b", east: 5_000, kind: .transitStop),
                               Fixture.place("c", east: 5_150, kind: .transitStop), Fixture.place("d", east: 10_000, kind: .transitStop))

    /// Home → Office: a 300 s walk to stop a, trip t1 at 10 min to b, a change walked to c in
    /// `changeWalk` seconds, trip t2 from c at `secondLeaves` minutes to d, the Office there.
    static func pinnedJourney(changeWalk: TimeInterval, secondLeaves: Double) -> RouteLeg {
        let first = TransitRide(lineName: "6", vehicle: "bus", tripID: "t1", boarding: call(a, 10), alighting: call(b, 25))
        let second = TransitRide(lineName: "17", vehicle: "bus", tripID: "t2", boarding: call(c, secondLeaves), alighting: call(d, 40))
        let walks = [TransitWalkStep(kind: .access, fromName: "Home", from: Fixture.home.coordinate, toName: "a", to: a.coordinate,
                                     start: Fixture.at(5), duration: 300, distance: 400),
                     TransitWalkStep(kind: .transfer, fromName: "b", from: b.coordinate, toName: "c", to: c.coordinate,
                                     start: Fixture.at(25), duration: changeWalk, distance: 150)]
        return RouteLeg(mode: .transit, expectedTravelTime: 35 * 60, departure: Fixture.at(5), arrival: Fixture.at(40),
                        rides: [first, second], walks: walks)
    }

    static func call(_ stop: Place, _ minutes: Double) -> TransitStopCall {
        TransitStopCall(stopID: stop.name, name: stop.name, coordinate: stop.coordinate, time: Fixture.at(minutes))
    }

    /// A port whose engine prefers bus t1 alone (walking on from b) and whose timetable still
    /// runs both pinned trips as pinned.
    static func port(pinned: RouteLeg) -> FakeRoutingPort {
        FakeRoutingPort(calls: { ride in
            guard let pinnedRide = pinned.rides.first(where: { $0.tripID == ride.tripID }) else { return [] }
            return [pinnedRide.boarding, pinnedRide.alighting].map {
                TripCall(stopID: $0.stopID, name: $0.name, coordinate: $0.coordinate, arrival: $0.time, departure: $0.time)
            }
        }, legs: { query in
            guard query.mode == .transit else { return Fixture.walk(5) }
            let walk = 300 * query.pace.durationMultiplier, leaves = Fixture.at(10).addingTimeInterval(-walk)
            var access = pinned.walks[0]
            (access.start, access.duration) = (leaves, walk)
            return RouteLeg(mode: .transit, expectedTravelTime: Fixture.at(42).timeIntervalSince(leaves), departure: leaves,
                            arrival: Fixture.at(42), rides: [pinned.rides[0]], walks: [access])
        })
    }

    func plan(pinning leg: RouteLeg) throws -> RoutePlan {
        var plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office)], modes: [.transit],
                                 timePreference: .departAt(Fixture.at(0)))
        plan.legs[0] = leg
        return try plan.pinningDeparture(ofSegment: 0)
    }

    func testASlowerPaceKeepsAPinnedJourneyWhoseChangeStillHolds() async throws {
        let pinned = Self.pinnedJourney(changeWalk: 120, secondLeaves: 28)
        let planner = Planner(routing: Self.port(pinned: pinned), clock: clock)
        let slow = try await planner.computeLegs(try plan(pinning: pinned).settingPace(.slow))
        XCTAssertTrue(slow.pending.isEmpty, "nothing to propose beside a journey the traveller still takes: \(slow.pending)")
        XCTAssertEqual(slow.legs[0]?.tripIDs, ["t1", "t2"], "the pinned buses, the change kept")
        XCTAssertEqual(slow.legs[0]?.walks.map(\.duration), [375, 150], "its walks at the slow pace")
        let normal = try await planner.computeLegs(slow.settingPace(.normal))
        XCTAssertTrue(normal.pending.isEmpty, "\(normal.pending)")
        XCTAssertEqual(normal.legs[0]?.tripIDs, ["t1", "t2"])
        XCTAssertEqual(normal.legs[0]?.walks.map(\.duration), [300, 120])
    }

    /// The change from b to c takes 100 s at the normal pace and 125 s at the slow one, but bus t2
    /// leaves c 110 s after t1 arrives: at the slow pace the pinned journey can't be taken, and
    /// the engine's answer is proposed.
    func testASlowerPaceThatBreaksThePinnedChangeProposes() async throws {
        let pinned = Self.pinnedJourney(changeWalk: 100, secondLeaves: 25 + 110 / 60)
        let planner = Planner(routing: Self.port(pinned: pinned), clock: clock)
        let slow = try await planner.computeLegs(try plan(pinning: pinned).settingPace(.slow))
        let proposal = try XCTUnwrap(slow.pendingUpdate(ofSegment: 0), "the change no longer holds: \(slow.legs)")
        guard case .ride(let ride) = proposal.proposal else { return XCTFail("a ride proposed: \(proposal)") }
        XCTAssertEqual(ride.tripIDs, ["t1"])
    }

    /// Made step-free, the pinned journey's walk, routed for walkers, is no way for the
    /// traveller: not kept as chosen, the engine's step-free answer is proposed.
    func testAStepFreeNeedDoesNotKeepAPinnedJourneyWalkedForWalkers() async throws {
        let pinned = Self.pinnedJourney(changeWalk: 120, secondLeaves: 28)
        let planner = Planner(routing: Self.port(pinned: pinned), clock: clock)
        let stepFree = try await planner.computeLegs(try plan(pinning: pinned).settingAccess(.wheelchair))
        XCTAssertNotNil(stepFree.pendingUpdate(ofSegment: 0), "asked again step-free: \(stepFree.legs)")
    }

    /// A change between two stops is a walk and takes the new pace; a change at one stop keeps
    /// its minimum change time.
    func testAWalkedChangeBetweenTwoStopsTakesTheNewPace() {
        var leg = Self.pinnedJourney(changeWalk: 120, secondLeaves: 28)
        XCTAssertEqual(leg.walked(timesAsLong: 1.25).walks.map(\.duration), [375, 150])
        XCTAssertTrue(leg.walked(timesAsLong: 1.25).changesHold)
        XCTAssertTrue(leg.walked(timesAsLong: 1.5).changesHold, "off at 25:00, 180 s to c: there for 28:00")
        XCTAssertFalse(leg.walked(timesAsLong: 1.6).changesHold, "off at 25:00, 192 s to c: 12 s after bus t2 leaves")
        leg.walks[1].distance = 0
        XCTAssertEqual(leg.walked(timesAsLong: 1.25).walks.map(\.duration), [375, 120])
    }
}
