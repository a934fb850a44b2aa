import XCTest
@testable import Planner

/// Kept legs are timed as a full recompute of the same decisions times them: an edit that makes
/// the traveller earlier asks the transit legs after it again, removing a pin retimes the legs
/// around it, a stay empties the legs by the same direction rule the recompute times them with,
/// and a location fix keeps a dismissal.
final class RetimingRulesTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)
    static let shop = Fixture.place("Shop", east: 12_000)
    static let nearHome = Fixture.place("Near home", east: 100)

    /// Walks of 7 min from Home and 5 min from anywhere else; a bus every 15 min from 08:05 to
    /// 11:50, 20 min long, from anywhere to anywhere.
    static func port() -> FakeRoutingPort {
        FakeRoutingPort(legs: { query in
            switch query.mode {
            case .transit: return try Fixture.timetable(Array(stride(from: 5.0, through: 230, by: 15)), minutes: 20,
                                                        trip: { "bus-\(Int($0))" }, timing: query.timing)
            default: return Fixture.walk(query.from.name == "Home" ? 7 : 5)
            }
        })
    }

    /// Home -walk- Stop A -transit- Stop B -walk- Office, leaving 08:00.
    func transitPlan(origin: PlanNode = PlanNode(place: Fixture.home)) throws -> RoutePlan {
        try RoutePlan(nodes: [origin, PlanNode(place: Fixture.stopA, isInferred: true),
                              PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                      modes: [.walk, .transit, .walk], timePreference: .departAt(Fixture.morning))
    }

    /// The plan's decisions computed from scratch: every leg but chosen routes asked again.
    func fullRecompute(_ plan: RoutePlan, _ planner: Planner) async throws -> RoutePlan {
        var bare = plan
        bare.emptyLegs(keeping: [])
        bare.pending = [:]
        return try await planner.computeLegs(bare)
    }

    func assertLegsEqual(_ plan: RoutePlan, _ full: RoutePlan, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(plan.legs.map { $0?.departure }, full.legs.map { $0?.departure }, file: file, line: line)
        XCTAssertEqual(plan.legs.map { $0?.arrival }, full.legs.map { $0?.arrival }, file: file, line: line)
    }

    // MARK: - (a) Earlier, the transit legs after the edit are asked again

    func testAnEditThatMakesTheTravellerEarlierAsksTheTransitLegAfterItAgain() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let computed = try await planner.computeLegs(try transitPlan())
        XCTAssertEqual(computed.legs[1]?.departure, Fixture.at(20), "at the stop 08:07: the 08:20 bus")
        // From near home the walk is 5 min: at the stop 08:05, the 08:05 bus.
        let moved = try await planner.computeLegs(try computed.movingNode(at: 0, to: Self.nearHome))
        XCTAssertEqual(moved.legs[1]?.departure, Fixture.at(5), "the earlier bus, as a full recompute finds")
        assertLegsEqual(moved, try await fullRecompute(moved, planner))
    }

    // MARK: - (b) Removing a pin retimes the legs it timed

    func testUnlockingAPinnedSegmentRetimesItsLegAsAFullRecomputeWould() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let pinned = try await planner.computeLegs(
            try await planner.pinning(try await planner.computeLegs(try transitPlan()), segment: 1, at: Fixture.at(50)))
        XCTAssertEqual(pinned.legs[1]?.departure, Fixture.at(50))
        let unlocked = try pinned.unlocking(segment: 1)
        XCTAssertNil(unlocked.legs[1], "the bus was timed by the pin")
        XCTAssertNotNil(unlocked.legs[0], "a walk has no time of its own")
        let recomputed = try await planner.computeLegs(unlocked)
        XCTAssertEqual(recomputed.legs[1]?.departure, Fixture.at(20), "the first bus the traveller can catch")
        assertLegsEqual(recomputed, try await fullRecompute(recomputed, planner))
    }

    func testUnpinningRetimesTheLegsThePinTimed() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        // Home → Stop A → Stop B → Office → Shop: the bus on to the shop is timed from the pin.
        let day = try transitPlan().insertingNode(PlanNode(place: Self.shop), at: 4, mode: .transit)
        let pinned = try await planner.computeLegs(
            try await planner.pinning(try await planner.computeLegs(day), segment: 1, at: Fixture.at(50)))
        XCTAssertEqual(pinned.legs[3]?.departure, Fixture.at(80), "08:50 + 20 + 5: the 09:20 bus")
        let unpinned = try await planner.computeLegs(pinned.unpinning())
        XCTAssertEqual(unpinned.legs[1]?.departure, Fixture.at(20))
        XCTAssertEqual(unpinned.legs[3]?.departure, Fixture.at(50), "08:20 + 20 + 5: the 08:50 bus")
        assertLegsEqual(unpinned, try await fullRecompute(unpinned, planner))
    }

    // MARK: - One direction rule for stays and the recompute

    func testAStayBeforeAStayUntilAnchorEmptiesTheLegsAfterItAsTheRecomputeTimesThemForward() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        // Home -walk- Stop A -transit- Stop B (until 09:30) -walk- Office -transit- Shop, the last bus pinned:
        // the legs before Stop B go forward from the start, not back from the pin.
        var nodes = try transitPlan().insertingNode(PlanNode(place: Self.shop), at: 4, mode: .transit)
            .settingStay(.until(Fixture.at(90)), atNode: 2)
            .settingStay(.duration(20 * 60), atNode: 0)
        nodes = try await planner.computeLegs(nodes)
        let pinned = try await planner.computeLegs(try await planner.pinning(nodes, segment: 3, at: Fixture.at(125)))
        XCTAssertEqual(pinned.segmentsTimedBackFromFirstPin, 2..<3)
        XCTAssertEqual(pinned.legs[1]?.departure, Fixture.at(35), "at the stop 08:27: the 08:35 bus")
        let cleared = try pinned.settingStay(nil, atNode: 0)
        XCTAssertNil(cleared.legs[1], "the bus after the origin is timed forward from the start")
        let recomputed = try await planner.computeLegs(cleared)
        XCTAssertEqual(recomputed.legs[1]?.departure, Fixture.at(20))
        assertLegsEqual(recomputed, try await fullRecompute(recomputed, planner))
    }

    func testSegmentsTimedThroughANodeFollowTheRecomputesDirections() throws {
        let plan = try transitPlan(origin: PlanNode(place: Fixture.home))
        XCTAssertEqual(plan.segmentsTimed(throughNode: 1), [1, 2], "depart at: forward from the node")
        var arriving = plan
        arriving.timePreference = .arriveBy(Fixture.at(60))
        XCTAssertEqual(arriving.segmentsTimed(throughNode: 2), [0, 1], "arrive by: backward to the node")
    }

    // MARK: - A location fix keeps a dismissal

    func testALocationFixDoesNotBringBackADismissedProposal() async throws {
        let planner = Planner(routing: PlanConsistencyRulesTests.port(), clock: clock)
        let here = PlanNode(place: Fixture.home, isCurrentLocation: true)
        let computed = try await planner.computeLegs(try transitPlan(origin: here))
        let pinned = try await planner.computeLegs(try computed.pinningDeparture(ofSegment: 1))
        let detour = try pinned.insertingNode(PlanNode(place: Fixture.place("Detour", east: -800)), at: 1, mode: .walk)
        let proposed = try await planner.computeLegs(detour)
        XCTAssertNotNil(proposed.pendingUpdate(ofSegment: 2), "the pinned bus is missed and a later one proposed")
        let dismissed = try await planner.computeLegs(try proposed.dismissingPendingUpdate(ofSegment: 2))
        XCTAssertNil(dismissed.pendingUpdate(ofSegment: 2))
        // The traveller moved a few metres: the same bus is still missed, and still dismissed.
        let fix = Fixture.place("fix", east: 3).coordinate
        let located = try await planner.computeLegs(dismissed, currentLocation: fix)
        XCTAssertEqual(located.nodes[0].place.coordinate, fix)
        XCTAssertNil(located.pendingUpdate(ofSegment: 2), "a fix is not an edit: the dismissal holds")
        XCTAssertEqual(located.missedConnection(leavingAt: Fixture.morning), 2, "the pin is still missed, and says so")
    }
}
