import XCTest
@testable import Planner

/// A plan holds one pin per segment (issue 28, "Edits compose"): the morning bus and the
/// evening bus of a day; every rule that reads "the pin" applies to each.
final class SeveralPinsTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    /// Home -transit- Office -transit- Stop B, leaving 07:30; buses every half hour, 20 min long.
    func dayPlan() async throws -> (Planner, RoutePlan) {
        let planner = Planner(routing: ConstraintsTogetherTests.buses(), clock: clock)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office),
                                         PlanNode(place: Fixture.stopB)],
                                 modes: [.transit, .transit], timePreference: .departAt(Fixture.at(-30)))
        return (planner, try await planner.computeLegs(plan))
    }

    func testPinningASecondSegmentKeepsTheFirstPinAndTimesTheLegsBetweenFromIt() async throws {
        let (planner, plan) = try await dayPlan()
        let morning = try await planner.pinning(plan, segment: 0, at: Fixture.at(0))        // the 08:00 bus
        let both = try await planner.computeLegs(try await planner.pinning(morning, segment: 1, at: Fixture.at(540)))
        XCTAssertEqual(both.pinnedSegmentIndices, [0, 1])
        XCTAssertEqual(both.legs[0]?.departure, Fixture.at(0))
        XCTAssertEqual(both.legs[1]?.departure, Fixture.at(540))
        XCTAssertNil(both.missedConnection(leavingAt: Fixture.at(-30)))
        XCTAssertEqual(both.schedule()[0], Fixture.at(0), "the day starts with the morning pin, not before")
    }

    func testChoosingADepartureOnOneSegmentKeepsAnotherSegmentsPin() async throws {
        let (planner, plan) = try await dayPlan()
        let morning = try await planner.computeLegs(try await planner.pinning(plan, segment: 0, at: Fixture.at(0)))
        let options = try await planner.alternatives(for: morning, segment: 1, count: 3, at: Fixture.at(540))
        let chosen = try morning.choosingAlternative(try XCTUnwrap(options.first), ofSegment: 1)
        XCTAssertEqual(chosen.pinnedSegmentIndices, [0, 1], "the morning pin stays")
        XCTAssertEqual(chosen.pin(ofSegment: 0)?.departure, Fixture.at(0))
    }

    /// `plan choose` (issue 39): a leg for the first segment arriving after the second is
    /// pinned to leave misses that pin; one arriving in time keeps it. The same in an arrive-by
    /// plan, which has no start to go forward from.
    func testALegArrivingAfterTheNextPinLeavesMissesIt() async throws {
        for timing in [TimePreference.departAt(Fixture.at(-30)), .arriveBy(Fixture.at(600))] {
            let planner = Planner(routing: ConstraintsTogetherTests.buses(), clock: clock)
            var plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office), PlanNode(place: Fixture.stopB)],
                                     modes: [.transit, .transit], timePreference: timing)
            plan = try await planner.computeLegs(try await planner.pinning(try await planner.computeLegs(plan), segment: 1, at: Fixture.at(60)))
            XCTAssertEqual(plan.pin(ofSegment: 1)?.departure, Fixture.at(60), "\(timing)")
            XCTAssertNil(plan.pinMissed(afterSegment: 0, arrivingAt: Fixture.at(50)), "arriving 08:50 for the 09:00: \(timing)")
            XCTAssertEqual(plan.pinMissed(afterSegment: 0, arrivingAt: Fixture.at(70)),
                           RoutePlan.PinNotKept(segment: 1, ready: Fixture.at(70)), "arriving 09:10 for the 09:00: \(timing)")
            XCTAssertNil(plan.pinMissed(afterSegment: 1, arrivingAt: Fixture.at(700)), "no pin after the last segment")
        }
    }

    /// The mirror: a leg for the second segment leaving before the traveller gets to its start
    /// from the pinned first segment (08:00 → 08:20) leaves too early for that pin.
    func testALegLeavingBeforeThePinnedLegBeforeItArrivesIsTooEarly() async throws {
        for timing in [TimePreference.departAt(Fixture.at(-30)), .arriveBy(Fixture.at(600))] {
            let planner = Planner(routing: ConstraintsTogetherTests.buses(), clock: clock)
            var plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office), PlanNode(place: Fixture.stopB)],
                                     modes: [.transit, .transit], timePreference: timing)
            plan = try await planner.computeLegs(try await planner.pinning(try await planner.computeLegs(plan), segment: 0, at: Fixture.at(0)))
            XCTAssertEqual(plan.legs[0]?.arrival, Fixture.at(20), "\(timing)")
            XCTAssertEqual(plan.pinTooLate(beforeSegment: 1, leaving: Fixture.at(10)), RoutePlan.PinNotKept(segment: 0, ready: Fixture.at(20)),
                           "leaving 08:10 when the 08:00 bus arrives 08:20: \(timing)")
            XCTAssertNil(plan.pinTooLate(beforeSegment: 1, leaving: Fixture.at(30)), "leaving 08:30: \(timing)")
            XCTAssertNil(plan.pinTooLate(beforeSegment: 0, leaving: Fixture.at(-60)), "no pin before the first segment")
        }
    }

    func testAPinThatCannotBeKeptWithTheOthersIsMarkedMissedAndAnotherProposed() async throws {
        let (planner, plan) = try await dayPlan()
        let morning = try await planner.pinning(plan, segment: 0, at: Fixture.at(0))        // 08:00 → 08:20
        let clash = try await planner.computeLegs(try await planner.pinning(morning, segment: 1, at: Fixture.at(0)))
        // The second pin was taken at 08:00 from the office, but the first only arrives 08:20.
        XCTAssertEqual(clash.pinnedSegmentIndices, [0, 1], "neither pin is dropped")
        XCTAssertEqual(clash.missedConnection(leavingAt: Fixture.at(-30)), 1, "the later pin is the one that gives")
        XCTAssertEqual(clash.pendingUpdate(ofSegment: 1)?.latest?.departure, Fixture.at(30), "the 08:30 is proposed")
        XCTAssertNil(clash.totalTravelTime)
    }

    func testAConnectionALateBusBreaksIsMarkedMissedWithTheNextCatchableDepartureProposed() async throws {
        // Buses every half hour, 20 min long, each its own trip; a realtime feed says the 08:00 runs 15 min late.
        let timetable: FakeRoutingPort.LegScript = { query in
            try Fixture.timetable(Array(stride(from: -60.0, through: 600, by: 30)), minutes: 20, trip: { "T\(Int($0))" },
                                  timing: query.timing)
        }
        let onTime = Planner(routing: FakeRoutingPort(legs: timetable), clock: clock)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office),
                                         PlanNode(place: Fixture.stopB)],
                                 modes: [.transit, .transit], timePreference: .departAt(Fixture.at(-30)))
        let morning = try await onTime.pinning(try await onTime.computeLegs(plan), segment: 0, at: Fixture.at(0))
        let both = try await onTime.computeLegs(try await onTime.pinning(morning, segment: 1, at: Fixture.at(30)))
        XCTAssertNil(both.missedConnection(leavingAt: Fixture.at(-30)), "08:00 → 08:20, then the 08:30: it connects")

        let late = FakeRoutingPort(live: { leg in
            leg.tripIDs == ["T0"] ? PinnedDepartureTests.live(leg, late: 15) : leg
        }, legs: timetable)
        let live = try await Planner(routing: late, clock: clock).computeLegs(both.refreshing())
        XCTAssertEqual(live.legs[0]?.arrival, Fixture.at(35), "the late bus stays pinned and arrives 08:35")
        XCTAssertEqual(live.missedConnection(leavingAt: Fixture.at(-30)), 1, "the 08:30 connection is broken")
        XCTAssertEqual(live.pendingUpdate(ofSegment: 1)?.latest?.departure, Fixture.at(60), "the 09:00 is proposed")
    }

    func testAWalkPinThatCannotBeReachedProposesTheTimeItCanLeaveNotAnUntimedLeg() async throws {
        // Buses every half hour from 07:00, 20 min long; then a 5 min walk pinned to leave at 08:10,
        // which the 08:00 start cannot make (the first bus arrives 08:20).
        let port = FakeRoutingPort(legs: { query in
            query.mode == .walk ? Fixture.walk(5)
                : try Fixture.timetable(Array(stride(from: -60.0, through: 600, by: 30)), minutes: 20, timing: query.timing)
        })
        let planner = Planner(routing: port, clock: clock)
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopB), PlanNode(place: Fixture.office)],
                                 modes: [.transit, .walk], timePreference: .departAt(Fixture.at(0)))
        let pinned = try await planner.computeLegs(try await planner.pinning(try await planner.computeLegs(plan), segment: 1,
                                                                               at: Fixture.at(10)))
        // The bus is the one the traveller catches (08:00, not one timed back from the pin), the pin the one missed.
        XCTAssertEqual(pinned.legs[0]?.departure, Fixture.at(0))
        XCTAssertEqual(pinned.missedConnection(leavingAt: Fixture.at(0)), 1)
        let pending = try XCTUnwrap(pinned.pendingUpdate(ofSegment: 1))
        XCTAssertEqual(pending.selected.departure, Fixture.at(10), "the user's choice: leave at 08:10")
        XCTAssertEqual(pending.latest?.departure, Fixture.at(20), "the proposal: leave when the bus gets there")
        XCTAssertEqual(pending.latest?.arrival, Fixture.at(25))
    }

    func testUnlockingOneSegmentRemovesOnlyItsPin() async throws {
        let (planner, plan) = try await dayPlan()
        let both = try await planner.pinning(try await planner.pinning(plan, segment: 0, at: Fixture.at(0)), segment: 1,
                                             at: Fixture.at(540))
        let one = try both.unlocking(segment: 0)
        XCTAssertEqual(one.pinnedSegmentIndices, [1])
        XCTAssertTrue(both.unpinning().pins.isEmpty, "unpin removes every pin")
    }
}
