import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Past the table limit the landmarks (`StopLandmarks`) tighten the cells' bound: on written
/// feeds, compared with the exact table of every stop pair that an engine within the limit
/// keeps, their bound on a stop's distance to a set of walked-to endpoints (depart-at) or from
/// it (arrive-by) is never above the least walk plus distance, and reads a landmark's own
/// distances exactly. The journeys found with it are `testTheBoundFromCellsPastTheTableLimitChangesNoJourney`'s.
extension RaptorPropertyTests {
    func testTheLandmarksBoundNoStopAboveItsDistanceToTheEndpoints() throws {
        let fixture = try FeedFixture()
        var bounded = 0, tight = 0, exact = 0
        for seed in UInt64(1)...30 {
            let world = makeWorld(seed: seed &* 0x5851_F42D_4C95_7F2D)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            let n = timetable.stops.count
            let withTable = Raptor(timetable: timetable, paceMultiplier: 1)
            let towards = try XCTUnwrap(withTable.remainingTime.towards), away = try XCTUnwrap(withTable.remainingTime.away)
            // Every written feed has 6 stops or more: a limit of 4 keeps no table, and reads landmarks.
            let engine = Raptor(timetable: timetable, paceMultiplier: 1, remainingTimeTableStopLimit: 4,
                                remainingTimeLandmarks: 3 + Int(seed % 6))
            XCTAssertFalse(engine.remainingTime.landmarks.isEmpty, "seed \(seed): landmarks past the limit")
            XCTAssertTrue(withTable.remainingTime.landmarks.isEmpty, "seed \(seed): none within the limit")
            let forward = try XCTUnwrap(Raptor.Forward.remainingTimeLandmarks(of: engine))
            let backward = try XCTUnwrap(Raptor.Backward.remainingTimeLandmarks(of: engine))
            var g = SeededRandom(seed: seed &+ 17)
            for query in 0..<20 {
                // A landmark alone, walked in 0 seconds (its distances read exactly), or random stops and walks.
                let ends = query == 0
                    ? [Raptor.Endpoint(stop: engine.remainingTime.landmarks[0], seconds: 0)]
                    : (0..<Int.random(in: 1...3, using: &g)).map { _ in
                        Raptor.Endpoint(stop: Int32.random(in: 0..<Int32(n), using: &g), seconds: Int.random(in: 0...500, using: &g))
                    }
                let limit = query % 3 == 0 ? RemainingTimeGraph.radiusCap : Int.random(in: 600...7200, using: &g)
                for (name, lanes, table) in [("to", forward, towards), ("from", backward, away)] {
                    try lanes.ahead.withUnsafeBufferPointer { ahead in
                        try lanes.behind.withUnsafeBufferPointer { behind in
                            let bound = try XCTUnwrap(StopLandmarks.Bound(ahead: ahead, behind: behind, stopCount: n, endpoints: ends,
                                                                          under: limit))
                            for s in 0..<n {
                                // `table[e * n + s]`: from s to e (`towards`) or from e to s (`away`), capped.
                                let least = ends.filter { $0.seconds < limit }.map { $0.seconds + Int(table[Int($0.stop) * n + s]) }.min()!
                                let landmarks = Int(bound.seconds(from: s))
                                XCTAssertLessThanOrEqual(landmarks, least, "seed \(seed) query \(query): stop \(s) \(name) \(ends)")
                                bounded += 1
                                tight += landmarks == least ? 1 : 0
                                if query == 0, least < RemainingTimeGraph.radiusCap {
                                    XCTAssertEqual(landmarks, least, "seed \(seed): stop \(s) \(name) the landmark itself")
                                    exact += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(exact, 30 * 4, "the landmarks reach most stops of the written feeds")
        XCTAssertGreaterThan(tight, bounded / 10, "the landmarks bound some stops exactly besides their own")
    }
}
