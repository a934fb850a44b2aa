import Foundation
@testable import Planner
import XCTest

/// A plan as an agenda entry: when to leave, its first leg in words, and its states.
final class PlanAgendaTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!

    /// Home → Stop A on foot (5 min), then bus 3 from Stop A at 08:20 to Office.
    func plan(departAt minutes: Double, bus: RouteLeg = Fixture.transit(departing: Fixture.at(20), minutes: 15, trip: "t1"),
              pending: Bool = false) throws -> RoutePlan {
        let nodes = [Fixture.home, Fixture.stopA, Fixture.office].map { PlanNode(place: $0) }
        var plan = try RoutePlan(restoring: nodes, modes: [.walk, .transit], legs: [Fixture.walk(5), bus],
                                 timePreference: .departAt(Fixture.at(minutes)), pace: .normal, locks: [:], pinned: nil, pending: [:])
        if pending {
            let key = plan.segmentKey(1)
            plan = try RoutePlan(restoring: plan.nodes, modes: plan.modes, legs: plan.legs, timePreference: plan.timePreference,
                                 pace: .normal, locks: [:], pinned: nil,
                                 pending: [key: PendingSegmentUpdate(segment: key, selected: bus, proposal: .ride(bus))])
        }
        return plan
    }

    func testAPlanThatCatchesItsBusLeavesInTimeForItAndIsOnTime() throws {
        let agenda = try XCTUnwrap(PlanAgenda(try plan(departAt: 0), timeZone: utc, now: Fixture.at(-60), outsideCoverage: false))
        XCTAssertEqual(agenda.leave, Fixture.at(15), "the walk of 5 min before the 08:20 bus")
        XCTAssertEqual(agenda.arrival, Fixture.at(35))
        XCTAssertEqual(agenda.firstLeg, "walk 5 min to Stop A, then bus 3 at 08:20", "the walk and the ride it goes to")
        XCTAssertEqual(agenda.states, [.onTime])
        XCTAssertEqual(agenda.stateWords, ["on time"])
        XCTAssertEqual(agenda.arrivalDays, 0)
        XCTAssertEqual(PlanAgenda.words(try plan(departAt: 0), segment: 1, timeZone: utc), "bus 3 at 08:20 from a")
    }

    func testEveryStateThatAppliesIsListedMostSeriousFirst() throws {
        var bus = Fixture.transit(departing: Fixture.at(20), minutes: 15, trip: "t1")
        var late = bus.rides[0]
        late.boarding.scheduledTime = late.boarding.time.addingTimeInterval(-180)  // 3 min late
        var cancelled = bus.rides[0]
        cancelled.tripID = "t2"
        cancelled.cancelled = true
        bus.rides = [late, cancelled]
        // Leaving at 08:18, the 5 min walk misses the 08:20 bus.
        let agenda = try XCTUnwrap(PlanAgenda(try plan(departAt: 18, bus: bus, pending: true), timeZone: utc,
                                              now: Fixture.at(-60), outsideCoverage: true))
        XCTAssertEqual(agenda.states, [.cancelled, .missedConnection, .outsideCoverage, .delayed, .pendingUpdate])
        XCTAssertEqual(agenda.states.map(\.rawValue),
                       ["cancelled", "missed_connection", "outside_coverage", "delayed", "pending_update"])
    }

    /// Trial 60 F10: the bus at 08:20 missed (leaving at 08:18, the walk takes 5 min) and one at
    /// 08:40 proposed: the plan is timed as the proposal, and the agenda names that bus, not the
    /// missed one, beside its times.
    func testTheAgendaNamesTheProposedRideTheTimesBelongTo() throws {
        let missed = Fixture.transit(departing: Fixture.at(20), minutes: 15, trip: "t1")
        var later = Fixture.transit(departing: Fixture.at(40), minutes: 15, trip: "t9")
        later.rides[0].lineName = "7"
        let unpended = try plan(departAt: 18, bus: missed)
        let key = unpended.segmentKey(1)
        let plan = try RoutePlan(restoring: unpended.nodes, modes: unpended.modes, legs: unpended.legs, timePreference: unpended.timePreference,
                                 pace: .normal, locks: [:], pinned: nil,
                                 pending: [key: PendingSegmentUpdate(segment: key, selected: missed, proposal: .ride(later))])
        let agenda = try XCTUnwrap(PlanAgenda(plan, timeZone: utc, now: Fixture.at(-60), outsideCoverage: false))
        XCTAssertEqual(agenda.states, [.missedConnection, .pendingUpdate], "\(agenda.stateWords)")
        XCTAssertEqual(agenda.firstLeg, "walk 5 min to Stop A, then bus 7 at 08:40 (proposed)")
        // With nothing missed, a pending update is only offered: the plan's own ride is named.
        let onTime = try XCTUnwrap(PlanAgenda(try self.plan(departAt: 0, bus: missed, pending: true), timeZone: utc, now: Fixture.at(-60),
                                              outsideCoverage: false))
        XCTAssertEqual(onTime.firstLeg, "walk 5 min to Stop A, then bus 3 at 08:20")
    }

    /// The same where the first ride is segments later: leaving at 08:30, the walks (33 min) miss
    /// its bus at 08:56, and the one at 09:16 proposed is named, with its segment.
    func testAProposedFirstRideSegmentsLaterIsNamedWithItsSegment() throws {
        let nodes = [Fixture.home, Fixture.stopA, Fixture.stopB, Fixture.office].map { PlanNode(place: $0) }
        let missed = Fixture.transit(departing: Fixture.at(56), minutes: 10, trip: "t1")
        var later = Fixture.transit(departing: Fixture.at(76), minutes: 10, trip: "t9")
        later.rides[0].lineName = "7"
        let unpended = try RoutePlan(restoring: nodes, modes: [.walk, .walk, .transit], legs: [Fixture.walk(5), Fixture.walk(28), missed],
                                     timePreference: .departAt(Fixture.at(30)), pace: .normal, locks: [:], pinned: nil, pending: [:])
        let key = unpended.segmentKey(2)
        let plan = try RoutePlan(restoring: nodes, modes: unpended.modes, legs: unpended.legs, timePreference: unpended.timePreference,
                                 pace: .normal, locks: [:], pinned: nil,
                                 pending: [key: PendingSegmentUpdate(segment: key, selected: missed, proposal: .ride(later))])
        let agenda = try XCTUnwrap(PlanAgenda(plan, timeZone: utc, now: Fixture.at(-60), outsideCoverage: false))
        XCTAssertEqual(agenda.firstLeg, "walk 5 min to Stop A, first ride bus 7 at 09:16 (segment 3, proposed)")
    }

    /// Session 59: a trip that runs but skips the stop the ride boards at is not cancelled: the
    /// agenda says it does not stop there (`skips_stop`).
    func testARideWhoseTripSkipsItsStopSkipsTheStopAndIsNotCancelled() throws {
        var bus = Fixture.transit(departing: Fixture.at(20), minutes: 15, trip: "t1")
        bus.rides[0].cancelled = true
        bus.rides[0].skippedCall = .boarding
        let agenda = try XCTUnwrap(PlanAgenda(try plan(departAt: 0, bus: bus), timeZone: utc, now: Fixture.at(-60),
                                              outsideCoverage: false))
        XCTAssertEqual(agenda.states.map(\.rawValue), ["skips_stop"])
        let ride = bus.rides[0]
        XCTAssertEqual(agenda.stateWords, ["\(ride.vehicle) \(ride.lineName) does not stop at \(ride.boarding.name)"])
    }

    func testARideLessThanAMinuteLateIsNotDelayed() throws {
        var bus = Fixture.transit(departing: Fixture.at(20), minutes: 15, trip: "t1")
        bus.rides[0].boarding.scheduledTime = bus.rides[0].boarding.time.addingTimeInterval(-59)
        let agenda = try XCTUnwrap(PlanAgenda(try plan(departAt: 0, bus: bus), timeZone: utc, now: Fixture.at(-60),
                                              outsideCoverage: false))
        XCTAssertEqual(agenda.states, [.onTime])
    }

    /// Issue 41: "delayed +75" read the minutes bare; the delay reads as every duration does.
    func testADelayOfAnHourOrMoreReadsInHoursAndMinutes() throws {
        for (late, words) in [(75 * 60, "delayed +1 h 15 min"), (6 * 60, "delayed +6 min")] {
            var bus = Fixture.transit(departing: Fixture.at(20), minutes: 15, trip: "t1")
            bus.rides[0].boarding.scheduledTime = bus.rides[0].boarding.time.addingTimeInterval(-Double(late))
            let agenda = try XCTUnwrap(PlanAgenda(try plan(departAt: 0, bus: bus), timeZone: utc, now: Fixture.at(-60),
                                                  outsideCoverage: false))
            XCTAssertEqual(agenda.stateWords, [words])
        }
    }

    /// Home → Stop A → Stop B on foot, then bus 3 from Stop B: the bus does not follow the first
    /// walk, so "then bus 3" would be false; the entry names the ride and its segment.
    func testAFirstRideSegmentsLaterIsNamedWithItsSegmentNotAsWhatComesNext() throws {
        let nodes = [Fixture.home, Fixture.stopA, Fixture.stopB, Fixture.office].map { PlanNode(place: $0) }
        let plan = try RoutePlan(restoring: nodes, modes: [.walk, .walk, .transit],
                                 legs: [Fixture.walk(5), Fixture.walk(28), Fixture.transit(departing: Fixture.at(56), minutes: 10, trip: "t1")],
                                 timePreference: .departAt(Fixture.at(0)), pace: .normal, locks: [:], pinned: nil, pending: [:])
        let agenda = try XCTUnwrap(PlanAgenda(plan, timeZone: utc, now: Fixture.at(-60), outsideCoverage: false))
        XCTAssertEqual(agenda.firstLeg, "walk 5 min to Stop A, first ride bus 3 at 08:56 (segment 3)")
    }

    /// Trial 58: a walk of 198 s from 08:10:42 read "walk 3 min" in the agenda and 08:10 → 08:14,
    /// 4 min, in `plan show`: beside the clock times it stands between, a duration is their shown
    /// difference, for a walk leg and for the walk to a first ride alike.
    func testAWalksMinutesAreTheShownDifferenceOfItsClockTimes() throws {
        let start = Fixture.at(10.7), end = Fixture.at(10.7).addingTimeInterval(198)
        let walk = RouteLeg(mode: .walk, expectedTravelTime: 198, distance: 275, departure: start, arrival: end)
        let walked = try RoutePlan(restoring: [Fixture.home, Fixture.office].map { PlanNode(place: $0) }, modes: [.walk],
                                   legs: [walk], timePreference: .departAt(start), pace: .normal, locks: [:], pinned: nil, pending: [:])
        XCTAssertEqual(PlanAgenda.words(walked, segment: 0, timeZone: utc), "walk 4 min to Office")
        var ride = Fixture.transit(departing: end, minutes: 15, trip: "t1")
        ride.departure = start
        ride.walks = [TransitWalkStep(kind: .access, fromName: "Home", from: Fixture.home.coordinate, toName: "a",
                                      to: Fixture.stopA.coordinate, start: start, duration: 198, distance: 275)]
        let riding = try RoutePlan(restoring: [Fixture.home, Fixture.office].map { PlanNode(place: $0) }, modes: [.transit],
                                   legs: [ride], timePreference: .departAt(start), pace: .normal, locks: [:], pinned: nil, pending: [:])
        XCTAssertEqual(PlanAgenda.words(riding, segment: 0, timeZone: utc), "walk 4 min to a, bus 3 at 08:14")
    }

    /// Durations from an hour on read as umctl writes them, not "walk 107 min".
    func testAWalkOfAnHourOrMoreReadsInHoursAndMinutes() throws {
        let nodes = [Fixture.home, Fixture.office].map { PlanNode(place: $0) }
        let plan = try RoutePlan(restoring: nodes, modes: [.walk], legs: [Fixture.walk(107)],
                                 timePreference: .departAt(Fixture.at(0)), pace: .normal, locks: [:], pinned: nil, pending: [:])
        XCTAssertEqual(PlanAgenda.words(plan, segment: 0, timeZone: utc), "walk 1 h 47 min to Office")
    }
}
