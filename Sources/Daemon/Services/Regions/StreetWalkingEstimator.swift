import Foundation
import Planner
import Streets
import Transit

/// Transit's walking estimator backed by the street router, for the footpaths a GTFS import
/// computes between stops: the whole batch is routed in parallel over `StreetWalkTimer`'s
/// workers (every worker busy to the end), and `progress` tells how many are timed as the
/// answers come in. A pair the streets cannot answer is `nil`, which the importer times as a
/// straight line; if the workers cannot start at all, every pair is `nil` (all straight-line,
/// and the import report says so). In an import, the batch first waits for the routing
/// database that planetsplitter is building beside the feed's reading.
struct StreetWalkingEstimator: WalkingTimeEstimator {
    let timer: StreetWalkTimer
    /// The streets of the version being imported; the batch waits for their routing database.
    let streets: RegionImportStreets
    /// Told (timed, total) as the answers come in, on the calling thread.
    var progress: @Sendable (_ timed: Int, _ total: Int) -> Void = { _, _ in }

    var followsStreets: Bool { true }

    func walkingSeconds(from: Coordinate, to: Coordinate, pace: WalkingPace) -> Double? {
        walkingSeconds(pairs: [(from, to)], pace: pace).first ?? nil
    }

    func walkingSeconds(pairs: [(from: Coordinate, to: Coordinate)], pace: WalkingPace) -> [Double?] {
        // Not built: the import fails with planetsplitter's error once the step asks for the streets again.
        guard (try? streets.waitForRoutingDatabase()) != nil,
              let seconds = try? timer.walkingSeconds(pairs: pairs, pace: pace, progress: { progress($0, pairs.count) }) else {
            return Array(repeating: nil, count: pairs.count) // the workers cannot start
        }
        return seconds
    }
}
