import Foundation
import XCTest
@testable import Planner

/// Issue 39 (trial 48 finding 1) without an engine: a walk the planner chose because no bus ran
/// then is judged again when an edit moves it in time (`Planner.judgingPlannersWalksAgain`),
/// and rides where a bus now runs and walking is slower; a walk the user chose stays a walk.
final class WalksChosenForTheirTimeTests: XCTestCase {
    static let shop = Fixture.place("Shop", east: 5_000)
    /// Buses from two hours after `Fixture.morning`, every 10 minutes, 15 minutes a ride; walks at 80 m a minute.
    static let script: FakeRoutingPort.LegScript = { query in
        let metres = query.from.coordinate.distance(to: query.to.coordinate)
        guard query.mode == .transit else { return Fixture.walk(metres / 80, metres: metres) }
        guard case .departAt(let time) = query.timing, time >= Fixture.at(120) else { throw RoutingError.noRoute("no bus yet") }
        let departure = Date(timeIntervalSince1970: (time.timeIntervalSince1970 / 600).rounded(.up) * 600)
        return RouteLeg(mode: .transit, expectedTravelTime: 900, distance: metres, departure: departure,
                        arrival: departure.addingTimeInterval(900))
    }

    func day(_ planner: Planner) async throws -> RoutePlan {
        try await planner.buildPlanReporting(through: [Fixture.home, Self.shop, Fixture.office].map { PlanNode(place: $0) },
                                             preset: .transit, timePreference: .departAt(Fixture.morning), pace: .normal).plan
    }

    func testAWalkChosenWhenNoBusRanRidesOnceAnEditMovesItToWhenOneDoes() async throws {
        let planner = Planner(routing: FakeRoutingPort(legs: Self.script), clock: FixedClock(instant: Fixture.morning))
        let early = try await day(planner)
        XCTAssertEqual(early.modes, [.walk, .walk], "no bus at 08:00: both hops walked")
        XCTAssertTrue(early.isPlannersWalk(segment: 0), "\(early.notes)")

        let moved = early.settingTimePreference(.departAt(Fixture.at(180)))
        let computed = try await planner.computeLegsReporting(moved)
        XCTAssertEqual(computed.plan.modes, [.walk, .walk], "computing alone keeps the modes")
        let judged = try await planner.judgingPlannersWalksAgain(in: computed).plan
        XCTAssertEqual(judged.modes, [.transit, .transit], "at 11:00 a bus runs and walking (62 min) is slower")
        XCTAssertTrue(judged.legs.allSatisfy { $0 != nil })
        // From 11:00: the 11:00 bus arrives 11:15; 5 km at 80 m a minute arrives 12:02:30.
        XCTAssertEqual(judged.modeNote(ofSegment: 0), "by transit: 15 min door to door from its departure (walks and waits included) where walking takes 1 h 02 min")
    }

    func testAWalkTheUserChoseStaysAWalkWhenAnEditMovesItToWhenABusRuns() async throws {
        let planner = Planner(routing: FakeRoutingPort(legs: Self.script), clock: FixedClock(instant: Fixture.morning))
        let chosen = try await planner.computeLegs(try await day(planner).changingMode(ofSegment: 0, to: .walk))
        XCTAssertFalse(chosen.isPlannersWalk(segment: 0), "the user's walk")
        let moved = chosen.settingTimePreference(.departAt(Fixture.at(180)))
        let judged = try await planner.judgingPlannersWalksAgain(in: try await planner.computeLegsReporting(moved)).plan
        XCTAssertEqual(judged.modes, [.walk, .transit], "the user's walk stays; the planner's rides")
    }

    /// Review of session 49: the walk to a pinned ride (`walkingTheWayToPinnedRides`, "walked:
    /// the way to the pinned ride") is walked so that it does not take the pinned vehicle; an edit
    /// that moves it to when the only bus is that vehicle keeps it walked, with its note.
    func testTheWalkToAPinnedRideIsNotRiddenOnThePinnedVehicle() async throws {
        // Every ride is one vehicle trip, the one the pin boards.
        let planner = Planner(routing: FakeRoutingPort(legs: { query in
            var leg = try Self.script(query)
            guard query.mode == .transit, let departure = leg.departure, let arrival = leg.arrival else { return leg }
            leg.rides = [TransitRide(lineName: "3", vehicle: "bus", tripID: "the-pinned-bus",
                                     boarding: TransitStopCall(name: query.from.name, coordinate: query.from.coordinate, time: departure),
                                     alighting: TransitStopCall(name: query.to.name, coordinate: query.to.coordinate, time: arrival))]
            return leg
        }), clock: FixedClock(instant: Fixture.morning))
        var day = try await planner.buildPlanReporting(through: [Fixture.home, Self.shop, Fixture.office].map { PlanNode(place: $0) },
                                                       preset: .transit, timePreference: .departAt(Fixture.at(180)), pace: .normal).plan
        XCTAssertEqual(day.modes, [.transit, .transit], "\(day.notes)")
        day = try day.pinningDeparture(ofSegment: 1)
        day.setMode(.walk, at: 0)
        day.legs[0] = nil
        day.setModeNote(ModeNote(.wayToPinnedRide), ofSegment: 0)
        XCTAssertFalse(day.isPlannersWalk(segment: 0), "the way to a pinned ride is not the walk rule's")
        let judged = try await planner.judgingPlannersWalksAgain(in: try await planner.computeLegsReporting(day)).plan
        XCTAssertEqual(judged.modes, [.walk, .transit], "the only ride is the pinned vehicle: the way stays walked")
        XCTAssertEqual(judged.modeNote(ofSegment: 0), "walked: the way to the pinned ride")
    }

    /// Session 53: the way to a pinned ride was walked whatever the distance (1 h 13 min from
    /// Lielahti A to the pinned bus 6's stop). Where another bus runs and walking is slower, it
    /// rides that bus, with the walk rule's reason.
    func testTheWalkToAPinnedRideRidesAnotherVehicleWhenWalkingIsSlower() async throws {
        let planner = Planner(routing: FakeRoutingPort(legs: Self.script), clock: FixedClock(instant: Fixture.morning))
        var day = try await planner.buildPlanReporting(through: [Fixture.home, Self.shop, Fixture.office].map { PlanNode(place: $0) },
                                                       preset: .transit, timePreference: .departAt(Fixture.at(180)), pace: .normal).plan
        // The way to the ride pinned after it, walked (a note naming a pin needs the pin: `forgettingWaysToPinsGone`).
        day = try day.pinningDeparture(ofSegment: 1)
        day.setMode(.walk, at: 0)
        day.legs[0] = nil
        day.setModeNote(ModeNote(.wayToPinnedRide), ofSegment: 0)
        XCTAssertTrue(day.isWayToPinnedRide(segment: 0), "\(day.notes)")
        let judged = try await planner.judgingPlannersWalksAgain(in: try await planner.computeLegsReporting(day)).plan
        XCTAssertEqual(judged.modes, [.transit, .transit], "a bus no pin boards, 15 min where walking takes 62")
        XCTAssertEqual(judged.modeNote(ofSegment: 0), "by transit: 15 min door to door from its departure (walks and waits included) where walking takes 1 h 02 min")
    }

    /// Trial 49 finding 9: a day plan's first hop walked because no bus ran was timed back to
    /// leave just in time for the second hop's bus, and that bus was then judged from when the
    /// walk reached its stop, without the wait. The traveller can be there when the walk gets
    /// there leaving at the start: from then, the bus (door to door, waiting included) is slower
    /// than walking, so the second hop walks too and the plan leaves at its start.
    func testAHopIsJudgedFromWhenTheTravellerCanBeThereNotFromWhenAWalkTimedToItsBusGetsThere() async throws {
        // Buses from 10:00 only, every 10 minutes, 15 minutes a ride; walks at 80 m a minute.
        let planner = Planner(routing: FakeRoutingPort(legs: { query in
            let metres = query.from.coordinate.distance(to: query.to.coordinate)
            guard query.mode == .transit else { return Fixture.walk(metres / 80, metres: metres) }
            return try Fixture.timetable(stride(from: 120.0, through: 300, by: 10).map { $0 }, minutes: 15, timing: query.timing)
        }), clock: FixedClock(instant: Fixture.morning))
        let day = try await day(planner)
        XCTAssertEqual(day.modes, [.walk, .walk], "walking each hop (62 min) beats waiting for the 10:00 bus: \(day.notes)")
        XCTAssertEqual(day.departureTimes(startingAt: Fixture.morning).first ?? nil, Fixture.morning, "leaves at the plan's start")
        XCTAssertEqual(day.modeNote(ofSegment: 1).map { $0.hasPrefix("walked: walking (1 h 02 min) is no slower than transit") },
                       true, "\(day.notes)")
    }

    /// Every reason the walk rule gives a walk marks it as the planner's (`Kind.isWalkRule`), so a
    /// new reason cannot leave its walks out of being judged again.
    func testEveryReasonTheWalkRuleGivesAWalkMarksItAsThePlanners() {
        let choices = [
            Planner.walkOrRide(walking: 300, riding: 600, inherited: .transit, leaving: Fixture.morning),
            Planner.walkOrRide(walking: 300, riding: nil, inherited: .transit, leaving: Fixture.morning),
            Planner.walkOrRide(walking: 300, riding: 200, inherited: .transit, leaving: Fixture.morning,
                               distances: Planner.WalkedDistances(riding: 500, walking: 100)),
        ]
        XCTAssertEqual(choices.map(\.mode), [.walk, .walk, .walk])
        for choice in choices {
            XCTAssertEqual(choice.reason?.kind.isWalkRule, true, "\(String(describing: choice.reason))")
        }
        XCTAssertFalse(ModeNote.Kind.wayToPinnedRide.isWalkRule)
    }
}
