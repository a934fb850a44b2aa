import Foundation
import Planner
import Streets
import Transit

/// Transit's walking estimator backed by the street router, for the footpaths a GTFS import
/// computes between stops: the batch is routed in parallel over `StreetWalkTimer`'s workers,
/// in slices so `progress` can tell how many are timed. A pair the streets cannot answer is
/// `nil`, which the importer times as a straight line; if the workers cannot start at all,
/// every pair is `nil` (all straight-line, and the import report says so).
struct StreetWalkingEstimator: WalkingTimeEstimator {
    let timer: StreetWalkTimer
    /// Told (timed, total) after each slice, on the calling thread.
    var progress: @Sendable (_ timed: Int, _ total: Int) -> Void = { _, _ in }
    /// Pairs per slice: enough to keep every worker busy, few enough for a moving figure.
    var sliceSize = 256

    var followsStreets: Bool { true }

    func walkingSeconds(from: Coordinate, to: Coordinate, pace: WalkingPace) -> Double? {
        walkingSeconds(pairs: [(from, to)], pace: pace).first ?? nil
    }

    func walkingSeconds(pairs: [(from: Coordinate, to: Coordinate)], pace: WalkingPace) -> [Double?] {
        var seconds: [Double?] = []
        seconds.reserveCapacity(pairs.count)
        for start in stride(from: 0, to: pairs.count, by: sliceSize) {
            let slice = Array(pairs[start..<min(pairs.count, start + sliceSize)])
            guard let answers = try? timer.walkingSeconds(pairs: slice, pace: pace) else {
                return Array(repeating: nil, count: pairs.count) // the workers cannot start
            }
            seconds += answers
            progress(seconds.count, pairs.count)
        }
        return seconds
    }
}
