import Foundation
import Planner
import Streets
import Synchronization
import Transit

/// Walk and car through Routino: one `StreetRouter` per region version, started on first use
/// and shut down when the region is imported again or removed.
public final class StreetEngine: LegEngine {
    private let dataDirectory: URL
    private let workers: Int
    private let routers = Mutex<[String: (version: Date, router: StreetRouter)]>([:])

    public init(dataDirectory: URL, workers: Int) {
        self.dataDirectory = dataDirectory
        self.workers = workers
    }

    public func leg(for query: LegQuery, in region: RegionManifest, directory: URL) async throws -> RouteLeg {
        let router = try router(for: region)
        return try await router.leg(from: query.from.coordinate, to: query.to.coordinate, mode: query.mode, pace: query.pace)
    }

    private func router(for region: RegionManifest) throws -> StreetRouter {
        try routers.withLock { routers in
            if let cached = routers[region.name], cached.version == region.importedAt { return cached.router }
            routers[region.name]?.router.shutdown()
            let router: StreetRouter
            do {
                router = try StreetRouter(regions: [region], dataDirectory: dataDirectory, workers: workers)
            } catch let error as StreetsError {
                throw RoutingError.engineFailure(error.description)
            }
            routers[region.name] = (region.importedAt, router)
            return router
        }
    }

    /// Stops every worker (daemon shutdown).
    public func shutdown() {
        let all = routers.withLock { routers in
            defer { routers = [:] }
            return routers.values.map(\.router)
        }
        for router in all { router.shutdown() }
    }
}

/// Transit through our RAPTOR engine: one `TransitRouter` (timetable in memory) per region version.
public final class TransitEngine: LegEngine {
    private let routers = Mutex<[String: (version: Date, router: TransitRouter)]>([:])
    /// The most vehicle changes a journey may have (`--max-transfers`).
    private let maxTransfers: Int

    public init(maxTransfers: Int = 4) {
        self.maxTransfers = maxTransfers
    }

    public func leg(for query: LegQuery, in region: RegionManifest, directory: URL) async throws -> RouteLeg {
        let router = try router(for: region, directory: directory)
        try Task.checkCancellation()
        var leg = try router.leg(from: query.from.coordinate, to: query.to.coordinate, timing: query.timing, pace: query.pace,
                                 maxTransfers: maxTransfers).best
        // The engine only knows coordinates; name the walks' ends after the plan's places.
        for index in leg.walks.indices {
            if leg.walks[index].kind == .access { leg.walks[index].fromName = query.from.name }
            if leg.walks[index].kind == .egress { leg.walks[index].toName = query.to.name }
        }
        return leg
    }

    private func router(for region: RegionManifest, directory: URL) throws -> TransitRouter {
        try routers.withLock { routers in
            if let cached = routers[region.name], cached.version == region.importedAt { return cached.router }
            do {
                let router = try TransitRouter(regionDirectory: directory)
                routers[region.name] = (region.importedAt, router)
                return router
            } catch let error as TransitError {
                throw RoutingError.unsupportedInRegion("region \(region.name) has no usable timetable: \(error.description)")
            }
        }
    }

    /// The import step that adds GTFS feeds to a region: the timetable, with footpaths between
    /// stops timed on the streets of the region being imported (`staging` already holds its
    /// Routino database), then its stops in the place index (so searches and nearby-stop
    /// lookups find them).
    /// - parameter walkWorkers: Routino worker processes that time the footpaths in parallel.
    public static func importStep(feeds: [URL],
                                  walkWorkers: Int = ProcessInfo.processInfo.activeProcessorCount) -> RegionImportStep {
        RegionImportStep(name: "transit timetable", sources: feeds) { staging, progress in
            progress(RegionImportProgress(phase: "transit timetable", fraction: 0,
                                          detail: "reading \(feeds.map(\.lastPathComponent).joined(separator: ", ")), timing footpaths on the streets"))
            let walking: any WalkingTimeEstimator
            let timer = try? StreetWalkTimer(regionDirectory: staging, workers: walkWorkers)
            if let timer {
                walking = StreetWalkingEstimator(timer: timer)
            } else {
                walking = StraightLineWalking()
            }
            defer { timer?.shutdown() }
            let (report, imported) = try GTFSImporter().importFeedsListingStops(feeds, intoRegionDirectory: staging, walking: walking)
            progress(RegionImportProgress(phase: "transit timetable", fraction: 0.8, detail: "indexing stops"))
            let stops = imported.map {
                IndexedStop(id: $0.id, name: $0.name, coordinate: $0.coordinate, modes: $0.modes)
            }
            try PlaceIndex.addStops(stops, toRegionDirectory: staging)
            progress(RegionImportProgress(phase: "transit timetable", fraction: 1,
                                          detail: "\(stops.count) stops; " + report.summary.replacingOccurrences(of: "\n", with: "; ")))
        }
    }
}

extension TransitError: CodedError {}
