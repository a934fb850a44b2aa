import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// The engine's work counts (`EngineWork`, what `usefulmap-bench country` splits a slower
/// query by) come from the search itself: counting finds the same journeys as not counting,
/// and the counts agree with what the search must have done.
extension RaptorPropertyTests {
    func testCountingTheEnginesWorkChangesNoJourneyAndCountsWhatTheSearchDid() throws {
        let fixture = try FeedFixture()
        var compared = 0, withJourneys = 0
        for seed in UInt64(1)...20 {
            let world = makeWorld(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            let days = Raptor.serviceDays(around: Self.day0, timetable: timetable)
            let engine = Raptor(timetable: timetable, paceMultiplier: 1)
            let counter = engine.scratchPool.workCounter
            var g = SeededRandom(seed: seed &+ 43)
            for _ in 0..<10 {
                let (_, _, access, egress) = randomEnds(world, using: &g)
                let time = Self.day0 * 86_400 + 60 * Int.random(in: 5 * 60...11 * 60, using: &g)
                guard !access.isEmpty, !egress.isEmpty else { continue }
                let uncounted = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 6)
                counter.start()
                let counted = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 6)
                let work = counter.stop()
                let message = "seed \(seed) at \(time)"
                XCTAssertEqual(counted, uncounted, message)
                XCTAssertEqual(work.searches, 1, message)
                XCTAssertLessThanOrEqual(work.rounds.count, 6, message)
                // Round 1 queues the patterns of the stops the access walks make ready: each once.
                XCTAssertEqual(work.rounds.first?.stopsMarked, Set(access.map(\.stop)).count, message)
                let total = work.total
                // Every ride of a journey found hopped off where it improved its stop, and a
                // pattern scanned on a day visits at least one stop.
                XCTAssertGreaterThanOrEqual(total.hopOffs, counted.map(\.rides.count).max() ?? 0, message)
                XCTAssertGreaterThanOrEqual(total.stopsVisited, total.dayScans, message)
                XCTAssertGreaterThanOrEqual(total.transfersTried, total.stopsReadied, message)
                withJourneys += counted.isEmpty ? 0 : 1
                compared += 1
                // Off again: a search after `stop` adds nothing to what was counted.
                _ = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 6)
                XCTAssertEqual(counter.stop(), work, message)
            }
        }
        XCTAssertGreaterThan(compared, 100)
        XCTAssertGreaterThan(withJourneys, compared / 4, "the written feeds mostly connect")
    }
}
