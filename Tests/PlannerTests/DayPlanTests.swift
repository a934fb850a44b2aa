import XCTest
@testable import Planner

/// A day of several places: stays at a node, undoing a lock, choosing an alternative, joining
/// trips into one day, titles after a swap.
final class DayPlanTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)
    static let shop = Fixture.place("Shop", east: 5_000)

    /// Home → Stop A → Stop B → Office, as ComputeLegsTests (walk 7, bus every 15 min from 08:05, walk 5).
    func transitPlan(preference: TimePreference = .departAt(Fixture.morning)) throws -> RoutePlan {
        try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                              PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                      modes: [.walk, .transit, .walk], timePreference: preference)
    }

    /// Home → Shop → Office → Home, all walks (10 min each).
    func dayPlan() throws -> RoutePlan {
        try RoutePlan(nodes: [Fixture.home, Self.shop, Fixture.office, Fixture.home].map { PlanNode(place: $0) },
                      modes: [.walk, .walk, .walk], timePreference: .departAt(Fixture.morning))
    }

    static let walks: @Sendable (LegQuery) throws -> RouteLeg = { _ in Fixture.walk(10) }

    // MARK: - Stays

    func testAStayDelaysTheNextLegAndIsPartOfTheTotal() async throws {
        let port = FakeRoutingPort(legs: Self.walks)
        let planner = Planner(routing: port, clock: clock)
        let plan = try await planner.computeLegs(try dayPlan().settingStay(.duration(45 * 60), atNode: 1))
        XCTAssertEqual(plan.schedule(), [Fixture.at(0), Fixture.at(10), Fixture.at(65), Fixture.at(75)])
        XCTAssertEqual(plan.departureTimes()[1], Fixture.at(55))
        XCTAssertEqual(plan.totalTravelTime, 75 * 60)
    }

    func testTransitAfterAStayIsSearchedFromTheEndOfTheStay() async throws {
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        let plan = try await Planner(routing: port, clock: clock)
            .computeLegs(try transitPlan().settingStay(.duration(20 * 60), atNode: 0))
        let queries = await port.queries
        XCTAssertEqual(queries.map(\.timing).prefix(2), [.departAt(Fixture.at(20)), .departAt(Fixture.at(27))])
        XCTAssertEqual(plan.legs[1]?.departure, Fixture.at(35), "at the stop 08:27: the 08:35 bus")
    }

    func testStayingUntilATimeLeavesThenOrOnArrival() {
        XCTAssertEqual(NodeStay.until(Fixture.at(30)).leaving(arrivedAt: Fixture.at(10)), Fixture.at(30))
        XCTAssertEqual(NodeStay.until(Fixture.at(30)).leaving(arrivedAt: Fixture.at(40)), Fixture.at(40))
    }

    func testSettingAStayEmptiesOnlyTheTransitLegsItMoves() async throws {
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        let computed = try await Planner(routing: port, clock: clock).computeLegs(try transitPlan())
        let stayed = try computed.settingStay(.duration(600), atNode: 2)
        XCTAssertNotNil(stayed.legs[0])
        XCTAssertNotNil(stayed.legs[1], "the bus before the stop is not moved by a stay after it")
        XCTAssertNotNil(stayed.legs[2], "a walk has no time of its own")
        let early = try computed.settingStay(.duration(600), atNode: 0)
        XCTAssertNil(early.legs[1], "the bus after the stay must be asked again")
        XCTAssertNotNil(early.legs[0])
        XCTAssertNotNil(early.legs[2])
    }

    func testAStayAtTheDestinationOrOfNegativeLengthIsRefused() throws {
        let plan = try dayPlan()
        XCTAssertThrowsError(try plan.settingStay(.duration(60), atNode: 3)) { XCTAssertEqual(($0 as? PlannerError)?.code, "invalid_stay") }
        XCTAssertThrowsError(try plan.settingStay(.duration(-1), atNode: 1)) { XCTAssertEqual(($0 as? PlannerError)?.code, "invalid_stay") }
    }

    func testAStaySurvivesSwapAndMove() throws {
        let plan = try dayPlan().settingStay(.duration(600), atNode: 1)
        XCTAssertEqual(plan.swappingEnds().nodes[2].stay, .duration(600))
        let moved = try plan.movingNode(at: 1, to: Fixture.place("Other shop", east: 5_100))
        XCTAssertEqual(moved.nodes[1].stay, .duration(600))
    }

    // MARK: - Round trips

    func testTheSamePlaceMayComeBackButNotTwiceInARow() throws {
        let plan = try dayPlan()
        XCTAssertEqual(plan.nodes.first?.place, plan.nodes.last?.place)
        let appended = try plan.insertingNode(PlanNode(place: Self.shop), at: 4)
        XCTAssertEqual(appended.nodes.last?.place, Self.shop, "after the last node: the new destination")
        XCTAssertEqual(appended.legs.count, 4)
        XCTAssertThrowsError(try plan.insertingNode(PlanNode(place: Fixture.home), at: 4)) {
            XCTAssertEqual(($0 as? PlannerError)?.code, "same_place_twice")
        }
    }

    func testJoiningTripsMakesOneDay() throws {
        let first = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Self.shop)], modes: [.walk])
        let second = try RoutePlan(nodes: [PlanNode(place: Self.shop), PlanNode(place: Fixture.home)], modes: [.car])
        let day = try RoutePlan.joining([first, second])
        XCTAssertEqual(day.nodes.map(\.place.name), ["Home", "Shop", "Home"])
        XCTAssertEqual(day.modes, [.walk, .car])
    }

    func testADayBuiltThroughSeveralPlacesIsComputedInOneRun() async throws {
        let port = FakeRoutingPort(legs: Self.walks)
        let built = try await Planner(routing: port, clock: clock)
            .buildPlanReporting(through: [Fixture.home, Self.shop, Fixture.home].map { PlanNode(place: $0) }, preset: .walk,
                                timePreference: .departAt(Fixture.morning), pace: .normal)
        XCTAssertEqual(built.plan.nodes.map(\.place.name), ["Home", "Shop", "Home"])
        XCTAssertEqual(built.plan.schedule().last ?? nil, Fixture.at(20))
        XCTAssertEqual(built.plan.generatedTitle, "Home → Shop → Home")
    }

    // MARK: - Undo, choose, titles

    func testUnlockingDropsTheLockAndThePinAndEmptiesTheTransitLegThePinTimed() async throws {
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        let planner = Planner(routing: port, clock: clock)
        let computed = try await planner.computeLegs(try transitPlan())
        let pinned = try await planner.computeLegs(try computed.pinningDeparture(ofSegment: 1))
        let unlocked = try pinned.unlocking(segment: 1)
        XCTAssertFalse(unlocked.isLocked(segment: 1))
        XCTAssertNil(unlocked.pinned)
        XCTAssertNil(unlocked.legs[1], "asked again as a full recompute would")
        XCTAssertEqual(unlocked.legs[0], pinned.legs[0], "walks carry no times")
        XCTAssertEqual(unlocked.legs[2], pinned.legs[2])
    }

    func testSettingTheModeASegmentAlreadyHasKeepsItsChosenRoute() throws {
        let chosen = try dayPlan().choosingAlternative(Fixture.walk(12), ofSegment: 1)
        XCTAssertTrue(chosen.isChosenRoute(segment: 1))
        let again = try chosen.changingMode(ofSegment: 1, to: .walk)
        XCTAssertTrue(again.isChosenRoute(segment: 1), "walk again is not a new decision")
        XCTAssertEqual(again.legs[1], Fixture.walk(12))
    }

    func testUnlockingAChosenRouteEmptiesItsLegForTheEnginesOwnRoute() throws {
        let chosen = try dayPlan().choosingAlternative(Fixture.walk(12), ofSegment: 1)
        let unlocked = try chosen.unlocking(segment: 1)
        XCTAssertFalse(unlocked.isLocked(segment: 1))
        XCTAssertNil(unlocked.legs[1], "no longer the user's route: asked again, as a full recompute would")
    }

    func testChoosingATransitAlternativePinsItsTripAndRemembersItsLines() throws {
        let plan = try transitPlan()
        let option = try Fixture.timetable([35], minutes: 20, trip: { _ in "T35" }, timing: .departAt(Fixture.at(30)))
        let chosen = try plan.choosingAlternative(option, ofSegment: 1)
        XCTAssertEqual(chosen.pinned?.departure, Fixture.at(35))
        XCTAssertEqual(chosen.pinned?.tripIDs, option.tripIDs)
        XCTAssertEqual(chosen.lock(ofSegment: 1)?.chosenLines, ["3"])
        XCTAssertEqual(chosen.legs[1], option)
    }

    func testSwapReversesAGeneratedTitleAndKeepsTheUsersOwn() throws {
        let plan = try dayPlan()
        let trip = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office)], modes: [.walk])
        XCTAssertEqual(trip.titleAfterSwap("Home → Office"), "Office → Home")
        XCTAssertEqual(plan.titleAfterSwap("Home → Shop"), "Home → Shop", "not this plan's places from end to end")
        XCTAssertEqual(plan.titleAfterSwap("Home → Shop → Office → Home"), "Home → Office → Shop → Home")
        XCTAssertEqual(plan.titleAfterSwap("my Wednesday"), "my Wednesday")
    }
}
