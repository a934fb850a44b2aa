import Foundation
import Planner
import Streets

/// One routing engine for some modes, given the region a query falls in.
public protocol LegEngine: Sendable {
    func leg(for query: LegQuery, in region: RegionManifest, directory: URL) async throws -> RouteLeg
}

/// The daemon's `RoutingPort`: finds the region a query is in, sends walk and car to the street
/// engine and transit to the transit engine, answers stop lookups and searches from the
/// region's place index, and counts every leg query by mode.
public struct RegionRouter: RoutingPort {
    let regions: RegionRegistry
    let streets: (any LegEngine)?
    let transit: (any LegEngine)?
    let counters: DaemonCounters

    public init(regions: RegionRegistry, streets: (any LegEngine)?, transit: (any LegEngine)?, counters: DaemonCounters) {
        self.regions = regions
        self.streets = streets
        self.transit = transit
        self.counters = counters
    }

    public func leg(for query: LegQuery) async throws -> RouteLeg {
        try Task.checkCancellation()
        counters.countRoutingQuery(query.mode)
        let all = try regions.regions()
        guard let region = all.first(where: {
            $0.boundingBox.contains(query.from.coordinate, margin: 2_000) && $0.boundingBox.contains(query.to.coordinate, margin: 2_000)
        }) else {
            throw RoutingError.unsupportedInRegion(
                "\(query.from.name) → \(query.to.name) is not inside one imported region (\(all.map(\.name).joined(separator: ", ")))")
        }
        let engine = query.mode == .transit ? transit : streets
        guard let engine else {
            throw RoutingError.unsupportedInRegion("\(query.mode.rawValue) routing is not available in this build of usefulmapd")
        }
        if query.mode == .transit, !region.steps.contains(where: { $0.lowercased().contains("transit") || $0.lowercased().contains("gtfs") }) {
            throw RoutingError.unsupportedInRegion("region \(region.name) was imported without a GTFS feed")
        }
        return try await engine.leg(for: query, in: region, directory: regions.catalog.directory(of: region.name))
    }

    public func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
        guard let region = try regions.region(containing: coordinate) else { return [] }
        do {
            return try regions.placeIndex(of: region).nearbyStops(around: coordinate, radius: radius, limit: limit)
                .map { Place(name: $0.name, coordinate: $0.coordinate, kind: .transitStop) }
        } catch let error as StreetsError {
            throw RoutingError.engineFailure(error.description)
        }
    }

    public func search(_ text: String, near: Coordinate?) async throws -> [Place] {
        let region = try regions.primaryRegion(for: near)
        do {
            return try regions.placeIndex(of: region).search(text, near: near, limit: 10).map(\.place)
        } catch let error as StreetsError {
            throw RoutingError.engineFailure(error.description)
        }
    }
}
