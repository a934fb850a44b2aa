import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Arrive-by's forward pass runs inside the backward search's corridor (`Raptor.DeadlineCorridor`):
/// on the random feeds of the property tests it must find exactly the journeys an unbounded
/// forward search from the same departure finds.
extension RaptorPropertyTests {
    func testArriveByForwardPassInTheDeadlineCorridorFindsWhatAnUnboundedSearchFinds() throws {
        let fixture = try FeedFixture()
        var compared = 0, quicker = 0, chosenEarlier = 0, onTheEdge = 0
        for seed in UInt64(1)...40 {
            let world = makeWorld(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            let days = Raptor.serviceDays(around: Self.day0, timetable: timetable)
            let engine = Raptor(timetable: timetable, paceMultiplier: 1)
            var g = Generator(state: seed &+ 991)
            for query in 0..<15 {
                let from = MiniFeed.coordinate(km: Double.random(in: 0...2, using: &g), east: Double.random(in: 0...2, using: &g))
                let to = MiniFeed.coordinate(km: Double.random(in: 0...2, using: &g), east: Double.random(in: 0...2, using: &g))
                let deadline = Self.day0 * 86_400 + 60 * Int.random(in: 6 * 60...25 * 60, using: &g)
                let access = endpoints(world, around: from, towardsStop: true)
                let egress = endpoints(world, around: to, towardsStop: false)
                guard !access.isEmpty, !egress.isEmpty else { continue }
                // A transfer penalty makes the chosen journey sometimes not the latest one.
                let choice = JourneyChoice(transferPenalty: [0, 600, 1800][query % 3])
                let maxRides = query % 2 == 0 ? 5 : 12
                let answer = engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: maxRides) {
                    choice.best(among: $0, departAt: false)
                }
                XCTAssertEqual(answer.latest, engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: maxRides),
                               "seed \(seed) query \(query)")
                guard let chosen = answer.chosen else {
                    XCTAssertTrue(answer.latest.isEmpty, "seed \(seed) query \(query): a journey was found but none chosen")
                    continue
                }
                let unbounded = engine.departAt(chosen.departure, access: access, egress: egress, days: days,
                                                maxRides: chosen.rides.count, horizon: chosen.arrival - chosen.departure)
                XCTAssertEqual(answer.earliest, unbounded, "seed \(seed) query \(query) deadline \(deadline)")
                compared += 1
                if !unbounded.isEmpty { quicker += 1 }

                // Searching up to the deadline itself, the journeys arriving just in time run along the
                // corridor's edge (the backward search's own times): they must be found all the same.
                let edge = engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: maxRides) {
                    guard var widened = choice.best(among: $0, departAt: false) else { return nil }
                    widened.arrival = deadline + 1
                    widened.rides = Array(repeating: widened.rides[0], count: maxRides)
                    return widened
                }
                let edgeUnbounded = engine.departAt(chosen.departure, access: access, egress: egress, days: days,
                                                    maxRides: maxRides, horizon: deadline + 1 - chosen.departure)
                XCTAssertEqual(edge.earliest, edgeUnbounded, "seed \(seed) query \(query) deadline \(deadline), up to the deadline")
                if !edgeUnbounded.isEmpty { onTheEdge += 1 }
                if let latest = answer.latest.last?.departure, chosen.departure < latest { chosenEarlier += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 100)
        XCTAssertGreaterThan(quicker, 10, "some forward passes find a quicker journey")
        XCTAssertGreaterThan(chosenEarlier, 0, "some chosen journeys leave before the latest departure")
        XCTAssertGreaterThan(onTheEdge, compared / 2, "searched up to the deadline, the forward pass mostly finds journeys")
        print("RaptorDeadlineCorridorTests: \(compared) arrive-by queries, \(quicker) with a quicker journey, \(chosenEarlier) chosen before the latest, \(onTheEdge) with journeys up to the deadline")
    }
}
