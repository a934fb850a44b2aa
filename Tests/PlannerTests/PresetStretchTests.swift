import XCTest
@testable import Planner

/// Presets on an existing plan rebuild each stretch between the user's nodes from its two ends
/// (issue 28 item 13), so `fastest`, and a day of several places, can pick transit.
final class PresetStretchTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    /// Stop A near Home, Stop B near the office. Transit runs only from stop to stop (08:10,
    /// 08:20, … 20 min); walks take (metres / 80) minutes; a car takes an hour (traffic).
    static func port() -> FakeRoutingPort {
        FakeRoutingPort(stops: { point, _, _ in
            [Fixture.stopA, Fixture.stopB].sorted { $0.coordinate.distance(to: point) < $1.coordinate.distance(to: point) }
        }, legs: { query in
            switch query.mode {
            case .walk: return Fixture.walk(query.from.coordinate.distance(to: query.to.coordinate) / 80)
            case .car: return Fixture.car(60)
            case .bike: return Fixture.bike(40)
            case .transit:
                guard query.from.kind == .transitStop, query.to.kind == .transitStop else {
                    throw RoutingError.noRoute("no stop there")
                }
                return try Fixture.timetable(Array(stride(from: 10.0, through: 600, by: 10)), minutes: 20, timing: query.timing)
            }
        })
    }

    func testTheTransitPresetOnACarPlanBuildsWalkTransitWalkThatWorks() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let car = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .car,
                                              timePreference: .departAt(Fixture.morning), pace: .normal)
        let transit = try await planner.applyingPreset(.transit, to: car)
        XCTAssertEqual(transit.nodes.map(\.place.name), ["Home", "Stop A", "Stop B", "Office"])
        XCTAssertEqual(transit.modes, [.walk, .transit, .walk])
        XCTAssertNotNil(transit.totalTravelTime, "every leg found: \(transit.legs)")
    }

    func testTheTransitPresetOnATransitPlanKeepsItsWalksToTheStops() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let built = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit,
                                                timePreference: .departAt(Fixture.morning), pace: .normal)
        XCTAssertEqual(built.modes, [.walk, .transit, .walk])
        let again = try await planner.applyingPreset(.transit, to: built)
        XCTAssertEqual(again.modes, [.walk, .transit, .walk], "not three transit segments")
        XCTAssertEqual(again, built, "the same stretch, the same legs")
    }

    func testTheFastestPresetOnAnExistingPlanCanPickTransit() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let car = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .car,
                                              timePreference: .departAt(Fixture.morning), pace: .normal)
        let fastest = try await planner.applyingPreset(.fastest, to: car)
        XCTAssertEqual(fastest.modes, [.walk, .transit, .walk], "35 min by bus beats an hour by car")
    }

    func testADayOfSeveralPlacesCanPickTransit() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let day = try await planner.buildPlanReporting(through: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office),
                                                                 PlanNode(place: Fixture.place("Home again", east: 50))],
                                                       preset: .fastest, timePreference: .departAt(Fixture.morning), pace: .normal)
        XCTAssertTrue(day.plan.modes.contains(.transit), "\(day.plan.modes)")
        XCTAssertNotNil(day.plan.totalTravelTime)
    }

    func testAStretchWithALockKeepsItsStopsAndLockedModes() async throws {
        let planner = Planner(routing: Self.port(), clock: clock)
        let built = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit,
                                                timePreference: .departAt(Fixture.morning), pace: .normal)
        let locked = try built.changingMode(ofSegment: 0, to: .walk)
        let car = try await planner.applyingPreset(.car, to: locked)
        XCTAssertEqual(car.nodes.map(\.place.name), ["Home", "Stop A", "Office"])
        XCTAssertEqual(car.modes, [.walk, .car])
    }
}
