import Foundation
import Glibc
import Planner

/// Walk, bike and car legs on the imported regions' streets, computed by Routino in worker processes.
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
    /// The walk between a requested point and the road Routino snapped it to, km/h.
    static let connectorSpeed = 5.0
    /// Walks on the streets are timed at 5 km/h (Routino's foot profile and the connectors), so
    /// a walk's metres are its normal-pace seconds times this.
    public static let walkingMetresPerSecond = connectorSpeed / 3.6
    /// Failed routes a worker may answer before it is replaced (each leaks about 9 KB).
    public static let defaultRecycleAfterFailedRoutes = 500

    private let regions: [(manifest: RegionManifest, pool: RoutinoWorkerPool, components: StreetComponents?)]
    /// Told how many extra routes a `no_route` answer cost (see `retryFromNearbyRoads`).
    private let onRetry: (@Sendable (Int) -> Void)?
    /// Told of each `no_route` the street components decided without asking Routino.
    private let onKnownNoRoute: (@Sendable () -> Void)?

    /// - parameter workers: worker processes per region (started on first use).
    /// - throws: `StreetsError.workerNotFound` when `usefulmap-routino-worker` cannot be found.
    /// - parameter onRetry: told how many routes were asked again from other nearby roads after a `no_route`.
    /// - parameter workerNice: the nice value the worker processes run at (nil: the starting thread's).
    /// - parameter onKnownNoRoute: told of each `no_route` known from the street components, without Routino.
    public convenience init(regions: [RegionManifest], dataDirectory: URL,
                            workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                            workerNice: Int32? = nil, onRetry: (@Sendable (Int) -> Void)? = nil,
                            onKnownNoRoute: (@Sendable () -> Void)? = nil) throws {
        try self.init(regions: regions, dataDirectory: dataDirectory, workers: workers,
                      recycleAfterFailedRoutes: StreetRouter.defaultRecycleAfterFailedRoutes, afterRequestSent: nil,
                      workerNice: workerNice, onRetry: onRetry, onKnownNoRoute: onKnownNoRoute)
    }

    /// The full initialiser; `afterRequestSent` lets tests kill a worker mid-query.
    init(regions: [RegionManifest], dataDirectory: URL, workers: Int, recycleAfterFailedRoutes: Int,
         afterRequestSent: (@Sendable (pid_t) -> Void)?, workerNice: Int32? = nil,
         onRetry: (@Sendable (Int) -> Void)? = nil, onKnownNoRoute: (@Sendable () -> Void)? = nil) throws {
        self.onRetry = onRetry
        self.onKnownNoRoute = onKnownNoRoute
        let executable = try StreetRouter.locateWorker()
        let catalog = RegionCatalog(dataDirectory: dataDirectory)
        self.regions = regions.map { manifest in
            let configuration = RoutinoWorkerPool.Configuration(
                executable: executable, database: catalog.directory(of: manifest.name).path, workers: workers,
                recycleAfterFailedRoutes: max(1, recycleAfterFailedRoutes), nice: workerNice,
                afterRequestSent: afterRequestSent)
            return (manifest, RoutinoWorkerPool(configuration),
                    StreetComponents.read(regionDirectory: catalog.directory(of: manifest.name)))
        }
    }

    /// A walk, bike or car leg between two points: distance, duration and geometry, no dates.
    ///
    /// The geometry runs from `from` to `to`: when Routino snaps a point to a road, the straight
    /// piece between the point and the road is included (walked at 5 km/h, scaled by `pace`).
    /// A walk with a step-free `access` goes on the wheelchair profile (no steps) and is marked
    /// step-free; any other walk is marked unknown.
    public func leg(from: Coordinate, to: Coordinate, mode: TravelMode, pace: WalkingPace = .normal,
                    access: AccessNeed = .any, shortest: Bool = false) async throws -> RouteLeg {
        guard mode != .transit else {
            throw RoutingError.unsupportedInRegion("the street router computes walk, bike and car legs, not transit")
        }
        for point in [from, to] where !point.isValid {
            throw RoutingError.unsupportedInRegion("\(point.latitude),\(point.longitude) is not a valid coordinate")
        }
        guard let region = regions.first(where: {
            $0.manifest.boundingBox.contains(from, margin: RegionBoundingBox.margin)
                && $0.manifest.boundingBox.contains(to, margin: RegionBoundingBox.margin)
        }) else {
            throw RoutingError.unsupportedInRegion(outsideMessage(from: from, to: to))
        }
        let profile = StreetProfile(mode: mode, access: access)
        if let components = region.components, !components.mayConnect(from, to, within: Self.snapLimit) {
            onKnownNoRoute?()
            throw RoutingError.noRoute("no \(profile.activity) route connects these points in region \(region.manifest.name): "
                                       + "no street joins the network near the origin to the one near the destination")
        }
        var reply = try await route(profile, from, to, shortest: shortest, in: region.pool)
        if case .noRoute = reply, let found = try await retryFromNearbyRoads(profile, from, to, shortest: shortest, in: region.pool) {
            reply = found
        }
        switch reply {
        case let .route(distance, duration, points):
            var leg = Self.leg(mode: mode, pace: pace, from: from, to: to, distance: distance, duration: duration, points: points)
            leg.accessibility = profile.accessibility
            return leg
        case .noRoadNearby(let endpoint):
            let point = endpoint == "to" ? to : from
            throw RoutingError.noRoadNearby(
                "no road for \(profile.activity) within 1 km of the \(endpoint == "to" ? "destination" : "origin") (\(point.latitude),\(point.longitude))")
        case .noRoute:
            throw RoutingError.noRoute("no \(profile.activity) route connects these points in region \(region.manifest.name)")
        case .noProfileData:
            throw RoutingError.unsupportedInRegion(
                "region \(region.manifest.name) has no way open to a \(profile.vehicle) in its routing database; if "
                    + "\(profile.vehicle)s may go there, import it again (umctl region import \(region.manifest.name) "
                    + "--osm FILE --force) so that planetsplitter keeps the \(profile.vehicle) data")
        case .badRequest(let message):
            throw RoutingError.engineFailure("the routing worker rejected the request: \(message)")
        case .engine(let message):
            throw RoutingError.engineFailure(message)
        }
    }

    private func route(_ profile: StreetProfile, _ from: Coordinate, _ to: Coordinate, shortest: Bool = false,
                       in pool: RoutinoWorkerPool) async throws -> RoutinoReply {
        let request = String(format: "route %@ %.7f %.7f %.7f %.7f", profile.rawValue,
                             from.latitude, from.longitude, to.latitude, to.longitude) + (shortest ? " shortest" : "")
        return RoutinoReply(line: try await pool.ask(request))
    }

    /// Routino snaps each point to the nearest road usable by the mode; when that road cannot be
    /// reached (a one-way garage exit whose inside is not mapped) or left, there is "no route"
    /// although a road a few metres further works. So the destination, then the origin, is
    /// moved step by step (`retryOffsets`) until another road answers; the geometry still runs
    /// from the requested points, and a road over 1 km from them is never used. Every extra
    /// route asked is counted by `onRetry`.
    private func retryFromNearbyRoads(_ profile: StreetProfile, _ from: Coordinate, _ to: Coordinate, shortest: Bool,
                                      in pool: RoutinoWorkerPool) async throws -> RoutinoReply? {
        var retries = 0
        defer { if retries > 0 { onRetry?(retries) } }
        for movingDestination in [true, false] {
            let moving = movingDestination ? to : from, other = movingDestination ? from : to
            let towardOther = moving.bearing(to: other)
            for (distance, turn) in Self.retryOffsets {
                try Task.checkCancellation()
                let moved = moving.moved(distance: distance, bearing: towardOther + turn)
                retries += 1
                let reply = try await movingDestination ? route(profile, from, moved, shortest: shortest, in: pool)
                    : route(profile, moved, to, shortest: shortest, in: pool)
                guard case let .route(_, _, points) = reply, let first = points.first, let last = points.last else { continue }
                let snapped = movingDestination ? last : first
                if snapped.distance(to: moving) <= Self.snapLimit { return reply }
            }
        }
        return nil
    }

    /// The quickest route, then the shortest one when it is another route (at least 1 % or 10 m
    /// shorter): the options a person can choose between. Errors as `leg`, from the quickest.
    public func alternatives(from: Coordinate, to: Coordinate, mode: TravelMode, pace: WalkingPace = .normal,
                             access: AccessNeed = .any) async throws -> [RouteLeg] {
        let quickest = try await leg(from: from, to: to, mode: mode, pace: pace, access: access)
        let shortest: RouteLeg
        do {
            shortest = try await leg(from: from, to: to, mode: mode, pace: pace, access: access, shortest: true)
        } catch is RoutingError {
            return [quickest]
        }
        guard let long = quickest.distance, let short = shortest.distance, short < long - max(10, long * 0.01) else {
            return [quickest]
        }
        return [quickest, shortest]
    }

    /// Distances (m) and turns (degrees from the direction of the other end) tried in order.
    static let retryOffsets: [(Double, Double)] = [40.0, 80, 160, 320].flatMap { distance in
        [0.0, 90, -90, 180].map { (distance, $0) }
    }

    /// Routino's own limit for snapping a point to a road.
    public static let snapLimit = 1_000.0

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
        let fromInside = regions.contains { $0.manifest.boundingBox.contains(from, margin: RegionBoundingBox.margin) }
        let toInside = regions.contains { $0.manifest.boundingBox.contains(to, margin: RegionBoundingBox.margin) }
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

private extension Coordinate {
    /// Initial bearing towards `other`, degrees clockwise from north.
    func bearing(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180, Δλ = (other.longitude - longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2), x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        return atan2(y, x) * 180 / .pi
    }

    /// The point `distance` metres away along `bearing` (flat-earth step: retries move at most a few hundred metres).
    func moved(distance: Double, bearing: Double) -> Coordinate {
        let θ = bearing * .pi / 180
        let north = distance * cos(θ), east = distance * sin(θ)
        return Coordinate(latitude: latitude + north / 111_195,
                          longitude: longitude + east / max(1, 111_195 * cos(latitude * .pi / 180)))
    }
}
