import XCTest
@testable import Planner

/// A dismissed proposal stays dismissed until the timetable, the pin or the legs that time it
/// change (issue 28 item 11).
final class DismissedProposalTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    /// home -walk- Stop A (inferred) -transit- Stop B (inferred) -walk- office, leaving 08:00.
    func transitPlan() throws -> RoutePlan {
        try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                              PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                      modes: [.walk, .transit, .walk], timePreference: .departAt(Fixture.morning))
    }

    /// The pinned 08:15 bus, then a detour before it: the bus is missed and the 08:45 one proposed.
    func missedWithProposal(_ planner: Planner) async throws -> RoutePlan {
        let pinned = try await planner.computeLegs(try planner.computeLegs(try transitPlan()).pinningDeparture(ofSegment: 1))
        let detour = try pinned.insertingNode(PlanNode(place: Fixture.place("Detour", east: -800)), at: 1, mode: .walk)
        let proposed = try await planner.computeLegs(detour)
        XCTAssertNotNil(proposed.pendingUpdate(ofSegment: 2), "the next catchable bus is proposed")
        return proposed
    }

    func testADismissedCatchableDepartureIsNotProposedAgainByTheRecomputeAfterTheDismissal() async throws {
        let planner = Planner(routing: PlanConsistencyRulesTests.port(), clock: clock)
        let proposed = try await missedWithProposal(planner)
        let recomputed = try await planner.computeLegs(try proposed.dismissingPendingUpdate(ofSegment: 2))
        XCTAssertNil(recomputed.pendingUpdate(ofSegment: 2), "dismissed stays dismissed")
        XCTAssertEqual(recomputed.missedConnection(leavingAt: Fixture.morning), 2, "the pin is still missed, and says so")
        // An edit elsewhere that does not touch the legs timing the pin keeps the dismissal.
        let later = try await planner.computeLegs(try recomputed.settingStay(.duration(600), atNode: 3))
        XCTAssertNil(later.pendingUpdate(ofSegment: 2))
    }

    func testADismissedProposalComesBackWhenAnEditChangesTheLegsBeforeThePin() async throws {
        let planner = Planner(routing: PlanConsistencyRulesTests.port(), clock: clock)
        let dismissed = try await planner.computeLegs(try await missedWithProposal(planner).dismissingPendingUpdate(ofSegment: 2))
        let slower = try await planner.computeLegs(try dismissed.changingMode(ofSegment: 0, to: .walk).settingPace(.slow))
        XCTAssertNotNil(slower.pendingUpdate(ofSegment: slower.pinnedSegmentIndex ?? -1), "the legs before the pin changed")
    }

    func testANewPinForgetsTheDismissal() async throws {
        let planner = Planner(routing: PlanConsistencyRulesTests.port(), clock: clock)
        let dismissed = try await missedWithProposal(planner).dismissingPendingUpdate(ofSegment: 2)
        XCTAssertFalse(dismissed.dismissed.isEmpty)
        XCTAssertTrue(try dismissed.pinningDeparture(ofSegment: 2).dismissed.isEmpty)
        XCTAssertTrue(dismissed.unpinning().dismissed.isEmpty)
        XCTAssertTrue(dismissed.refreshing().dismissed.isEmpty, "a refresh asks the timetable again")
    }
}
