import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Past the table limit the landmarks (`StopLandmarks`) tighten the cells' bound: on written
/// feeds cut into regions of a few stops, compared with the exact table of every stop pair that
/// an engine within the limit keeps, their bound on a stop's distance to a set of walked-to
/// endpoints of one region (depart-at) or from them (arrive-by) is never above the least walk
/// plus distance, is 0 outside that region, and reads a landmark's own distances exactly. The
/// journeys found with it are `testTheBoundFromCellsPastTheTableLimitChangesNoJourney`'s.
extension RaptorPropertyTests {
    func testTheLandmarksBoundNoStopAboveItsDistanceToTheEndpoints() throws {
        let fixture = try FeedFixture()
        var bounded = 0, tight = 0, exact = 0
        for seed in UInt64(1)...30 {
            let world = makeWorld(seed: seed &* 0x5851_F42D_4C95_7F2D)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            let n = timetable.stops.count
            let withTable = Raptor(timetable: timetable, paceMultiplier: 1)
            XCTAssertNotNil(withTable.remainingTime.towards, "seed \(seed): a table within the limit")
            let towards = RemainingTimeGraph.exactDistances(withTable.remainingTime.incoming, stopCount: n)
            let away = RemainingTimeGraph.exactDistances(withTable.remainingTime.outgoing, stopCount: n)
            // Every written feed has 6 stops or more: a limit of 4 keeps no table, and reads landmarks.
            let engine = Raptor(timetable: timetable, paceMultiplier: 1, remainingTimeTableStopLimit: 4,
                                remainingTimeRegionStops: 4 + Int(seed % 12))
            let landmarks = try XCTUnwrap(engine.remainingTime.landmarks, "seed \(seed): landmarks past the limit")
            XCTAssertNil(withTable.remainingTime.landmarks, "seed \(seed): none within the limit")
            let regionOf = landmarks.regions.cellOf
            let forward = try XCTUnwrap(Raptor.Forward.remainingTimeLandmarks(of: engine))
            let backward = try XCTUnwrap(Raptor.Backward.remainingTimeLandmarks(of: engine))
            var g = SeededRandom(seed: seed &+ 17)
            for query in 0..<20 {
                // A landmark alone, walked in 0 seconds (its distances read exactly), or random stops of
                // one region and walks.
                let first = landmarks.landmarks[StopLandmarks.perRegion * Int.random(in: 0..<landmarks.regions.count, using: &g)]
                let region = regionOf[Int(first)]
                let stops = (0..<Int32(n)).filter { regionOf[Int($0)] == region }
                let ends = query == 0
                    ? [Raptor.Endpoint(stop: first, seconds: 0)]
                    : (0..<Int.random(in: 1...3, using: &g)).map { _ in
                        Raptor.Endpoint(stop: stops.randomElement(using: &g)!, seconds: Int.random(in: 0...500, using: &g))
                    }
                let limit = query % 3 == 0 ? RemainingTimeGraph.radiusCap : Int.random(in: 600...7200, using: &g)
                for (name, lanes, table) in [("to", forward, towards), ("from", backward, away)] {
                    try landmarks.place.withUnsafeBufferPointer { place in
                        try lanes.ahead.withUnsafeBufferPointer { ahead in
                        try lanes.behind.withUnsafeBufferPointer { behind in
                            let bound = try XCTUnwrap(StopLandmarks.Bound(landmarks, place: place, ahead: ahead, behind: behind,
                                                                          endpoints: ends, under: limit))
                            for s in 0..<n {
                                // `table[e * n + s]`: from s to e (`towards`) or from e to s (`away`), capped.
                                let least = ends.filter { $0.seconds < limit }.map { $0.seconds + Int(table[Int($0.stop) * n + s]) }.min()!
                                let fromLandmarks = Int(bound.seconds(from: s))
                                XCTAssertLessThanOrEqual(fromLandmarks, least, "seed \(seed) query \(query): stop \(s) \(name) \(ends)")
                                guard regionOf[s] == region else {
                                    XCTAssertEqual(fromLandmarks, 0, "seed \(seed): stop \(s) of another region")
                                    continue
                                }
                                bounded += 1
                                tight += fromLandmarks == least && least > 0 ? 1 : 0
                                if query == 0, least < RemainingTimeGraph.radiusCap {
                                    XCTAssertEqual(fromLandmarks, least, "seed \(seed): stop \(s) \(name) the landmark itself")
                                    exact += 1
                                }
                            }
                        }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(exact, 30 * 2, "a landmark reaches most stops of its region")
        XCTAssertGreaterThan(tight, bounded / 10, "the landmarks bound some stops exactly besides their own")
    }
}
