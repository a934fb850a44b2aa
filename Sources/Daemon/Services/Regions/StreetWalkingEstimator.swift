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
///
/// An import that stops (cancelled, or planetsplitter failed) throws instead: no footpath is
/// then timed as a straight line, and no timetable is written for a version that will not go live.
struct StreetWalkingEstimator: WalkingTimeEstimator {
    let timer: StreetWalkTimer
    /// The streets of the version being imported; the batch waits for their routing database.
    let streets: RegionImportStreets
    /// Told (timed, total) as the answers come in, on the calling thread.
    var progress: @Sendable (_ timed: Int, _ total: Int) -> Void = { _, _ in }
    /// Told why, when the workers cannot time the batch at all (every footpath is then a straight line).
    var failed: @Sendable (_ reason: String) -> Void = { _ in }

    var followsStreets: Bool { true }

    var normalPaceMetresPerSecond: Double? { StreetRouter.walkingMetresPerSecond }

    func walkingSeconds(from: Coordinate, to: Coordinate, pace: WalkingPace) -> Double? {
        (try? walkingSeconds(pairs: [(from, to)], pace: pace))?.first ?? nil
    }

    /// - throws: `RegionImportStreets.NotBuilt` when the routing database was not built (the
    ///   import fails with planetsplitter's error), `CancellationError` when the import stops.
    func walkingSeconds(pairs: [(from: Coordinate, to: Coordinate)], pace: WalkingPace) throws -> [Double?] {
        try streets.waitForRoutingDatabase()
        if !pairs.isEmpty { progress(0, pairs.count) } // no 0 of 0: a fraction the progress cannot show
        do {
            return try timer.walkingSeconds(pairs: pairs, pace: pace, progress: { progress($0, pairs.count) },
                                            shouldStop: { streets.isStopping })
        } catch let error as CancellationError {
            throw error
        } catch {
            failed((error as? RoutingError)?.message ?? "\(error)")
            return Array(repeating: nil, count: pairs.count) // the workers cannot start: all straight lines, counted
        }
    }
}
