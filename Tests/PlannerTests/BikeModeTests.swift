import XCTest
@testable import Planner

/// The bicycle as a fourth mode: presets, `plan mode`, the walking pace and Google Maps links.
final class BikeModeTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    func planner(bikeMinutes: Double? = nil) -> Planner {
        Planner(routing: FakeRoutingPort(stops: RefinementTests.stops(PlanBuilderTests.allStops), legs: { query in
            if query.mode == .bike, let bikeMinutes { return Fixture.bike(bikeMinutes) }
            return try PlanBuilderTests.legs(query)
        }), clock: clock)
    }

    func testTheBikePresetRidesFromDoorToDoorInOneSegment() async throws {
        let plan = try await planner().buildPlan(from: Fixture.home, to: Fixture.office, preset: .bike,
                                                  timePreference: .departAt(Fixture.at(10)), pace: .normal)
        XCTAssertEqual(plan.nodes.map(\.place), [Fixture.home, Fixture.office])
        XCTAssertEqual(plan.modes, [.bike])
        XCTAssertEqual(plan.legs[0]?.mode, .bike)
    }

    func testTheBikePresetTurnsATransitPlanIntoOneRideWithoutItsStops() async throws {
        let planner = planner()
        let transit = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit,
                                                  timePreference: .departAt(Fixture.at(10)), pace: .normal)
        XCTAssertGreaterThan(transit.segmentCount, 1)
        let bike = try await planner.applyingPreset(.bike, to: transit)
        XCTAssertEqual(bike.nodes.map(\.place), [Fixture.home, Fixture.office])
        XCTAssertEqual(bike.modes, [.bike])
        XCTAssertNotNil(bike.legs[0])
    }

    func testPlanModeToBikeLocksTheSegmentAndComputesABikeLeg() async throws {
        let planner = planner()
        let walk = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .walk,
                                               timePreference: .departAt(Fixture.at(10)), pace: .normal)
        let changed = try walk.changingMode(ofSegment: 0, to: .bike)
        XCTAssertEqual(changed.modes, [.bike])
        XCTAssertNil(changed.legs[0], "the walk leg is emptied")
        XCTAssertTrue(changed.isLocked(segment: 0))
        let computed = try await planner.computeLegs(changed)
        XCTAssertEqual(computed.legs[0]?.mode, .bike)
        XCTAssertLessThan(try XCTUnwrap(computed.legs[0]).expectedTravelTime, try XCTUnwrap(walk.legs[0]).expectedTravelTime)
        // A preset leaves the segment the user set to bike alone.
        XCTAssertEqual(computed.applyingPreset(.car).modes, [.bike])
    }

    func testTheFastestPresetNeverPicksTheBikeThoughCompareMarksItFastest() async throws {
        let planner = planner(bikeMinutes: 1)
        let comparisons = try await planner.compare(from: Fixture.home, to: Fixture.office, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(comparisons.filter(\.isFastest).map(\.mode), [.bike])
        let fastest = try await planner.buildPlan(from: Fixture.home, to: Fixture.office, preset: .fastest,
                                                  timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(fastest.modes, [.car])
    }

    func testADayByBikeRidesEveryPartAndEachLegLeavesWhenThePreviousArrives() async throws {
        let shop = Fixture.place("Shop", east: 3_000)
        let day = try await planner().buildPlanReporting(
            through: [Fixture.home, Fixture.office, shop].map { PlanNode(place: $0) }, preset: .bike,
            timePreference: .departAt(Fixture.at(10)), pace: .normal).plan
        XCTAssertEqual(day.nodes.map(\.place.name), ["Home", Fixture.office.name, "Shop"])
        XCTAssertEqual(day.modes, [.bike, .bike])
        XCTAssertEqual(day.legs.compactMap { $0?.mode }, [.bike, .bike])
        let times = day.schedule()
        XCTAssertEqual(times.first??.timeIntervalSince(Fixture.at(10)), 0)
        XCTAssertNotNil(day.totalTravelTime)
    }

    func testAChangedWalkingPaceKeepsBikeLegs() async throws {
        let plan = try await planner().buildPlan(from: Fixture.home, to: Fixture.office, preset: .bike,
                                                 timePreference: .departAt(Fixture.at(10)), pace: .normal)
        let slower = plan.settingPace(.slow)
        XCTAssertEqual(slower.legs, plan.legs)
    }

    func testAMixedPlanMergesABikeAndAWalkSegmentIntoABikeSegment() {
        XCTAssertEqual(RoutePlan.mergedMode(.walk, nil, .bike, nil), .bike)
        XCTAssertEqual(RoutePlan.mergedMode(.bike, nil, .car, nil), .car)
    }

    func testABikeLinkHasTravelModeOneAndReadsBackAsBike() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let departure = Fixture.at(10)
        let bike = try GoogleMapsLink.build(from: GoogleMapsLinkTests.origin, to: GoogleMapsLinkTests.destination,
                                            mode: .bike, departure: departure, timeZone: tokyo)
        let walk = try GoogleMapsLink.build(from: GoogleMapsLinkTests.origin, to: GoogleMapsLinkTests.destination,
                                            mode: .walk, departure: departure, timeZone: tokyo)
        XCTAssertTrue(bike.url.hasSuffix("!3e1"), bike.url)
        XCTAssertEqual(bike.url.dropLast(4), walk.url.dropLast(4), "only the travel mode differs from the walk link")
        // Read back: the `!3e` token names the mode through the format file, and the link is one
        // the store recognises (and refuses to keep).
        let format = try GoogleMapsFormat.embedded.get()
        let token = String(try XCTUnwrap(bike.url.split(separator: "!").last).dropFirst(2))
        XCTAssertEqual(format.primary.modeValues.filter { $0.value == token }.map(\.key), ["bike"])
        XCTAssertTrue(GoogleMapsLink.containsDirectionsLink("see " + bike.url))
    }

    func testTheFallbackBikeLinkSaysBicycling() throws {
        let link = try GoogleMapsLink.build(from: GoogleMapsLinkTests.origin, to: GoogleMapsLinkTests.destination,
                                            mode: .bike, departure: nil, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        XCTAssertTrue(link.url.hasSuffix("&travelmode=bicycling"), link.url)
        XCTAssertTrue(GoogleMapsLink.containsDirectionsLink(link.url))
    }
}
