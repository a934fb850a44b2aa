import Foundation
import Planner

/// Walking times along the streets for many pairs at once, on one region directory's Routino
/// database — including a staging directory that an import is still building, before the
/// region is in the catalogue. The transit import uses it to time footpaths between stops.
///
/// ```swift
/// let timer = try StreetWalkTimer(regionDirectory: staging, workers: 2)
/// defer { timer.shutdown() }
/// let seconds = try timer.walkingSeconds(pairs: [(stopA, stopB)], pace: .normal) // [Double?]
/// ```
///
/// The batch call blocks its thread (run it on a thread of its own, as imports are) while the
/// requests spread over the worker pool, the same `RoutinoWorkerPool` and worker processes
/// `StreetRouter` uses. Walking ignores one-way restrictions, so a pair and its reverse are
/// routed once. The routes go to the workers ordered by their first end (west to east), so each
/// worker's lane of the batch holds the walks from the stops of one part of the region, and
/// a stop's nearest road is looked up by about one worker instead of by each. Times match `StreetRouter.leg(…, mode: .walk)`: the street route at 5 km/h
/// plus the straight pieces to and from the roads, scaled by the pace. The workers are asked
/// for times only (`time walk`: the route's ends without its geometry), which is all that takes.
public final class StreetWalkTimer: Sendable {
    private let pool: RoutinoWorkerPool

    /// - parameter regionDirectory: a directory holding Routino's database (`planetsplitter` output).
    /// - parameter workers: worker processes (started on the first batch).
    /// - throws: `StreetsError.workerNotFound` when `usefulmap-routino-worker` cannot be found.
    public init(regionDirectory: URL, workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        let configuration = RoutinoWorkerPool.Configuration(
            executable: try StreetRouter.locateWorker(), database: regionDirectory.path, workers: workers,
            recycleAfterFailedRoutes: StreetRouter.defaultRecycleAfterFailedRoutes)
        pool = RoutinoWorkerPool(configuration)
    }

    /// Seconds to walk each pair at `pace`, in order; `nil` for a pair with no walking route
    /// (a point over 1 km from any road, roads that do not connect, or a query the worker died on).
    /// - parameter progress: told how many of the pairs are timed, on the calling thread, as the
    ///   answers come in (about every 256 routes) and at the end.
    /// - parameter shouldStop: polled while the workers answer (about every 0.1 s): true stops
    ///   the batch (`CancellationError`); the routes not yet asked are left to `shutdown`.
    /// - throws: `RoutingError.engineFailure` when no worker can start on this directory (no
    ///   routing database there, say); nothing is routed then. `CancellationError` when stopped.
    public func walkingSeconds(pairs: [(from: Coordinate, to: Coordinate)], pace: WalkingPace,
                               progress: (_ timed: Int) -> Void = { _ in },
                               shouldStop: () -> Bool = { false }) throws -> [Double?] {
        guard !pairs.isEmpty else { return [] }
        guard let ping = pool.askAll(["ping"], unlessStopped: shouldStop) else { throw CancellationError() }
        if case .failure(let error) = ping[0] { throw error }
        var requestIndex: [UnorderedPair: Int] = [:]
        var requests: [(from: Coordinate, to: Coordinate)] = []
        let indices = pairs.map { pair in
            let key = UnorderedPair(pair.from, pair.to)
            if let known = requestIndex[key] { return known }
            requestIndex[key] = requests.count
            requests.append(pair)
            return requests.count - 1
        }
        let order = requests.indices.sorted { a, b in
            (requests[a].from.longitude, requests[a].from.latitude, a) < (requests[b].from.longitude, requests[b].from.latitude, b)
        }
        let answers = pool.askAll(order.map { index in
            let pair = requests[index]
            return String(format: "time walk %.7f %.7f %.7f %.7f",
                          pair.from.latitude, pair.from.longitude, pair.to.latitude, pair.to.longitude)
        }, unlessStopped: shouldStop) { routed in
            // Most routes answer two pairs (there and back): report the pairs in proportion.
            progress(routed == requests.count ? pairs.count : pairs.count * routed / requests.count)
        }
        guard let lines = answers else { throw CancellationError() }
        var seconds = [Double?](repeating: nil, count: requests.count)
        for (index, line) in zip(order, lines) {
            guard case .success(let text) = line,
                  case let .route(distance, duration, points) = RoutinoReply(line: text) else { continue }
            let pair = requests[index]
            seconds[index] = StreetRouter.leg(mode: .walk, pace: pace, from: pair.from, to: pair.to,
                                              distance: distance, duration: duration, points: points).expectedTravelTime
        }
        return indices.map { seconds[$0] }
    }

    /// Stops every worker; later batches throw.
    public func shutdown() {
        pool.shutdown()
    }

    deinit { shutdown() }

    /// A pair of points regardless of direction (the geometry of the walk is the same both ways).
    private struct UnorderedPair: Hashable {
        var a: Coordinate, b: Coordinate
        init(_ x: Coordinate, _ y: Coordinate) {
            if (x.latitude, x.longitude) <= (y.latitude, y.longitude) { (a, b) = (x, y) } else { (a, b) = (y, x) }
        }
    }
}
