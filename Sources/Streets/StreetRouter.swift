import Foundation
import Glibc
import Planner

/// Walk and car legs on the imported regions' streets, computed by Routino in worker processes.
///
/// ```swift
/// let router = try StreetRouter(regions: try catalog.regions(), dataDirectory: dataDir)
/// let leg = try await router.leg(from: home, to: work, mode: .walk, pace: .normal)
/// leg.distance          // metres along the streets
/// leg.expectedTravelTime // seconds, scaled by the walking pace for walks
/// router.shutdown()
/// ```
///
/// Errors are `RoutingError`: `.unsupportedInRegion` for a point outside every region (or a
/// transit request), `.noRoadNearby` when a point is over 1 km from any usable road,
/// `.noRoute` when the roads do not connect, `.engineFailure` when the workers cannot answer.
public final class StreetRouter: Sendable {
    /// Points this far outside a region's bounding box still belong to it (data near the edge).
    static let regionMargin = 1_000.0
    /// The walk between a requested point and the road Routino snapped it to, km/h.
    static let connectorSpeed = 5.0
    /// Failed routes a worker may answer before it is replaced (each leaks about 9 KB).
    public static let defaultRecycleAfterFailedRoutes = 500

    private let regions: [(manifest: RegionManifest, pool: RoutinoWorkerPool)]

    /// - parameter workers: worker processes per region (started on first use).
    /// - throws: `StreetsError.workerNotFound` when `usefulmap-routino-worker` cannot be found.
    public convenience init(regions: [RegionManifest], dataDirectory: URL,
                            workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        try self.init(regions: regions, dataDirectory: dataDirectory, workers: workers,
                      recycleAfterFailedRoutes: StreetRouter.defaultRecycleAfterFailedRoutes, afterRequestSent: nil)
    }

    /// The full initialiser; `afterRequestSent` lets tests kill a worker mid-query.
    init(regions: [RegionManifest], dataDirectory: URL, workers: Int, recycleAfterFailedRoutes: Int,
         afterRequestSent: (@Sendable (pid_t) -> Void)?) throws {
        let executable = try StreetRouter.locateWorker()
        let catalog = RegionCatalog(dataDirectory: dataDirectory)
        self.regions = regions.map { manifest in
            let configuration = RoutinoWorkerPool.Configuration(
                executable: executable, database: catalog.directory(of: manifest.name).path, workers: workers,
                recycleAfterFailedRoutes: max(1, recycleAfterFailedRoutes), afterRequestSent: afterRequestSent)
            return (manifest, RoutinoWorkerPool(configuration))
        }
    }

    /// A walk or car leg between two points: distance, duration and geometry, no dates.
    ///
    /// The geometry runs from `from` to `to`: when Routino snaps a point to a road, the straight
    /// piece between the point and the road is included (walked at 5 km/h, scaled by `pace`).
    public func leg(from: Coordinate, to: Coordinate, mode: TravelMode, pace: WalkingPace = .normal) async throws -> RouteLeg {
        guard mode != .transit else {
            throw RoutingError.unsupportedInRegion("the street router computes walk and car legs, not transit")
        }
        for point in [from, to] where !point.isValid {
            throw RoutingError.unsupportedInRegion("\(point.latitude),\(point.longitude) is not a valid coordinate")
        }
        guard let region = regions.first(where: {
            $0.manifest.boundingBox.contains(from, margin: Self.regionMargin)
                && $0.manifest.boundingBox.contains(to, margin: Self.regionMargin)
        }) else {
            throw RoutingError.unsupportedInRegion(outsideMessage(from: from, to: to))
        }
        let request = String(format: "route %@ %.7f %.7f %.7f %.7f", mode == .walk ? "walk" : "car",
                             from.latitude, from.longitude, to.latitude, to.longitude)
        let line = try await region.pool.ask(request)
        switch RoutinoReply(line: line) {
        case let .route(distance, duration, points):
            return Self.leg(mode: mode, pace: pace, from: from, to: to, distance: distance, duration: duration, points: points)
        case .noRoadNearby(let endpoint):
            let point = endpoint == "to" ? to : from
            throw RoutingError.noRoadNearby(
                "no road for \(mode == .walk ? "walking" : "driving") within 1 km of the \(endpoint == "to" ? "destination" : "origin") (\(point.latitude),\(point.longitude))")
        case .noRoute:
            throw RoutingError.noRoute("no \(mode == .walk ? "walking" : "driving") route connects these points in region \(region.manifest.name)")
        case .badRequest(let message):
            throw RoutingError.engineFailure("the routing worker rejected the request: \(message)")
        case .engine(let message):
            throw RoutingError.engineFailure(message)
        }
    }

    /// Stops every worker; later queries fail with `engineFailure`.
    public func shutdown() {
        for region in regions { region.pool.shutdown() }
    }

    deinit { shutdown() }

    // MARK: - Helpers

    static func leg(mode: TravelMode, pace: WalkingPace, from: Coordinate, to: Coordinate,
                    distance: Double, duration: Double, points: [Coordinate]) -> RouteLeg {
        var geometry = points
        var connector = 0.0
        if let first = geometry.first, first.distance(to: from) > 1 {
            connector += first.distance(to: from)
            geometry.insert(from, at: 0)
        }
        if let last = geometry.last, last.distance(to: to) > 1 {
            connector += last.distance(to: to)
            geometry.append(to)
        }
        let connectorTime = connector / (connectorSpeed / 3.6) * pace.durationMultiplier
        let travel = mode == .walk ? duration * pace.durationMultiplier : duration
        return RouteLeg(mode: mode, expectedTravelTime: travel + connectorTime, distance: distance + connector,
                        geometry: geometry)
    }

    private func outsideMessage(from: Coordinate, to: Coordinate) -> String {
        let names = regions.map(\.manifest.name).joined(separator: ", ")
        let covered = names.isEmpty ? "no region is imported" : "imported regions: \(names)"
        let fromInside = regions.contains { $0.manifest.boundingBox.contains(from, margin: Self.regionMargin) }
        let toInside = regions.contains { $0.manifest.boundingBox.contains(to, margin: Self.regionMargin) }
        switch (fromInside, toInside) {
        case (false, _): return "the origin \(from.latitude),\(from.longitude) is outside every imported region (\(covered))"
        case (_, false): return "the destination \(to.latitude),\(to.longitude) is outside every imported region (\(covered))"
        default: return "origin and destination are in different regions (\(covered))"
        }
    }

    /// `$USEFULMAP_ROUTINO_WORKER`, else `usefulmap-routino-worker` beside the running executable
    /// (`/proc/self/exe`; under `swift test` that is the .xctest binary in .build/debug).
    static func locateWorker() throws -> String {
        var searched: [String] = []
        if let path = ProcessInfo.processInfo.environment["USEFULMAP_ROUTINO_WORKER"], !path.isEmpty {
            if FileManager.default.isExecutableFile(atPath: path) { return path }
            searched.append(path)
        }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let candidate = URL(fileURLWithPath: executable).deletingLastPathComponent()
                .appendingPathComponent("usefulmap-routino-worker").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            searched.append(candidate)
        }
        throw StreetsError.workerNotFound(searched: searched)
    }
}
