import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Past the remaining time graph's table limit the bound is searched per query, meeting in the
/// middle (`Raptor.remainingTimeStartPercent`): part of the radius from the start, the rest from
/// the target, and a stop neither search settles gets the whole radius. On written feeds with
/// more stops than a table limit lowered for the engine (its `remainingTimeTableStopLimit`), every
/// split finds exactly the journeys the same engine finds without the bound, each search on a
/// scratch the others reuse (so a stop one search set and did not list for its reset would show).
extension RaptorPropertyTests {
    func testTheBoundSearchedPerQueryPastTheTableLimitChangesNoJourney() throws {
        let fixture = try FeedFixture()
        var compared = 0, found = 0
        for seed in UInt64(1)...30 {
            let world = makeWorld(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            let days = Raptor.serviceDays(around: Self.day0, timetable: timetable)
            // Every written feed has 6 stops or more: a limit of 4 keeps no table.
            let searched = Raptor(timetable: timetable, paceMultiplier: 1, remainingTimeTableStopLimit: 4)
            XCTAssertGreaterThan(timetable.stops.count, 4)
            XCTAssertNil(searched.remainingTime.towards, "seed \(seed): no table past the limit")
            XCTAssertNotNil(Raptor(timetable: timetable, paceMultiplier: 1).remainingTime.towards,
                            "seed \(seed): a table within the default limit")
            var unbounded = searched
            unbounded.boundsRemainingTime = false
            let splits = [0, 30, 50, 100].map { percent -> Raptor in
                var engine = searched
                engine.remainingTimeStartPercent = percent
                return engine
            }
            var g = SeededRandom(seed: seed &+ 91)
            for query in 0..<12 {
                let from = RaptorPropertyTests.randomPoint(using: &g)
                let to = RaptorPropertyTests.randomPoint(using: &g)
                let time = Self.day0 * 86_400 + 60 * Int.random(in: 5 * 60...11 * 60, using: &g)
                let access = endpoints(world, around: from, towardsStop: true)
                let egress = endpoints(world, around: to, towardsStop: false)
                guard !access.isEmpty, !egress.isEmpty else { continue }
                let choose: ([Raptor.Journey]) -> Raptor.Journey? = query % 2 == 0 ? { $0.first } : { $0.last }
                let departing = unbounded.departAt(time, access: access, egress: egress, days: days, maxRides: 6,
                                                   thenLatestFrom: choose)
                let arriving = unbounded.arriveBy(time + 3 * 3600, access: access, egress: egress, days: days, maxRides: 6,
                                                  thenEarliestFrom: choose)
                found += departing.earliest.isEmpty ? 0 : 1
                for engine in splits {
                    let message = "seed \(seed) query \(query), \(engine.remainingTimeStartPercent) % from the start"
                    let d = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 6, thenLatestFrom: choose)
                    XCTAssertEqual(d.earliest, departing.earliest, "depart-at, \(message)")
                    XCTAssertEqual(d.chosen, departing.chosen, "depart-at, \(message)")
                    XCTAssertEqual(d.latest, departing.latest, "depart-at's backward pass, \(message)")
                    let a = engine.arriveBy(time + 3 * 3600, access: access, egress: egress, days: days, maxRides: 6,
                                            thenEarliestFrom: choose)
                    XCTAssertEqual(a.latest, arriving.latest, "arrive-by, \(message)")
                    XCTAssertEqual(a.chosen, arriving.chosen, "arrive-by, \(message)")
                    XCTAssertEqual(a.earliest, arriving.earliest, "arrive-by's forward pass, \(message)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 400)
        XCTAssertGreaterThan(found, compared / 4 / 4, "the written feeds mostly connect")
    }
}
