import XCTest
@testable import Planner

/// Step-free plans: the access setting reaches every leg query, is kept by rebuilds and presets,
/// and changing it empties exactly the walk and transit legs.
final class StepFreeAccessTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    func planner(_ port: FakeRoutingPort) -> Planner { Planner(routing: port, clock: clock) }

    func port() -> FakeRoutingPort {
        FakeRoutingPort(stops: RefinementTests.stops(PlanBuilderTests.allStops), legs: PlanBuilderTests.legs)
    }

    func testEveryLegQueryOfAStepFreePlanCarriesItsAccess() async throws {
        let port = port()
        let plan = try await planner(port).buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit,
                                                     timePreference: .departAt(Fixture.at(10)), pace: .normal, access: .wheelchair)
        XCTAssertEqual(plan.access, .wheelchair)
        let queries = await port.queries
        XCTAssertFalse(queries.isEmpty)
        XCTAssertEqual(Set(queries.map(\.access)), [.wheelchair])
    }

    func testCompareAsksEveryModeWithTheAccess() async throws {
        let port = port()
        _ = try await planner(port).compare(from: Fixture.home, to: Fixture.office, timePreference: .departAt(Fixture.at(10)),
                                            pace: .normal, access: .wheelchairStrict)
        let queries = await port.queries
        XCTAssertEqual(Set(queries.map(\.access)), [.wheelchairStrict])
    }

    func testSettingTheAccessEmptiesWalkAndTransitLegsAndKeepsCarAndBike() async throws {
        let planner = planner(port())
        var plan = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit,
                                               timePreference: .departAt(Fixture.at(10)), pace: .normal)
        plan = try await planner.computeLegs(try plan.changingMode(ofSegment: 0, to: .car))
        plan = try await planner.computeLegs(try plan.changingMode(ofSegment: plan.segmentCount - 1, to: .bike))
        XCTAssertTrue(plan.legs.allSatisfy { $0 != nil })
        let changed = plan.settingAccess(.wheelchair)
        XCTAssertEqual(changed.access, .wheelchair)
        for index in 0..<plan.segmentCount {
            let touched = plan.modes[index] == .walk || plan.modes[index] == .transit
            XCTAssertEqual(changed.legs[index] == nil, touched, "segment \(index) (\(plan.modes[index]))")
        }
        XCTAssertEqual(changed.settingAccess(.wheelchair), changed, "the same setting changes nothing")
        let rebuilt = try await planner.rebuild(changed, preset: .walk)
        XCTAssertEqual(rebuilt.access, .wheelchair, "a rebuild keeps the plan's access")
    }

    func testTheLeastAccessibleLegSpeaksForSeveral() {
        XCTAssertNil(LegAccessibility.least(of: [nil, nil]))
        XCTAssertEqual(LegAccessibility.least(of: [.stepFree, nil, .stepFree]), .stepFree)
        XCTAssertEqual(LegAccessibility.least(of: [.stepFree, .unknown]), .unknown)
        XCTAssertEqual(LegAccessibility.least(of: [.unknown, .no, .stepFree]), .no)
    }
}
