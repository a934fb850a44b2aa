import Foundation
import Planner
import Streets
import Transit

/// A routing engine for some modes: it opens itself on one region version, and the region's
/// `RegionHandle` keeps what it opened until the region changes.
public protocol LegEngine: Sendable {
    func open(_ region: RegionManifest, directory: URL, counters: DaemonCounters) throws -> any RegionLegSource
}

/// An engine opened on one region version.
public protocol RegionLegSource: Sendable {
    func leg(for query: LegQuery) async throws -> RouteLeg
    /// Up to `count` different legs (`RoutingPort.alternatives`).
    func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg]
    /// Stops its workers (the region was imported again, changed or removed).
    func close()
    /// `leg` as the engine's live data sees its trips now (`RoutingPort.liveLeg`).
    func liveLeg(_ leg: RouteLeg) -> RouteLeg
    /// Lays GTFS-Realtime feeds over the engine's timetable (`[]` clears them); nil for an
    /// engine without a timetable.
    func applyRealtime(_ feeds: [RealtimeFeed], now: Date) -> RealtimeApplyReport?
    /// The cheapest tickets for these rides taken in order (a whole plan's); nil for an engine
    /// without fares.
    func tickets(for rides: [TransitRide]) -> FareTickets?
    /// The calls of the trip a ride is on (`RoutingPort.calls(ofTripOf:)`); empty for an engine
    /// without a timetable.
    func calls(ofTripOf ride: TransitRide) -> [TripCall]
    /// Transit: `leg(for:)` with the walks to and from some stops known better than the engine
    /// estimates them (`StreetTimedTransit`); other engines ignore them.
    func leg(for query: LegQuery, knownWalks: KnownEndWalks) async throws -> RouteLeg
    /// Transit: `alternatives(for:count:)` likewise.
    func alternatives(for query: LegQuery, count: Int, knownWalks: KnownEndWalks) async throws -> [RouteLeg]
}

extension RegionLegSource {
    public func leg(for query: LegQuery, knownWalks: KnownEndWalks) async throws -> RouteLeg { try await leg(for: query) }
    public func alternatives(for query: LegQuery, count: Int, knownWalks: KnownEndWalks) async throws -> [RouteLeg] {
        try await alternatives(for: query, count: count)
    }
}

/// The daemon's `RoutingPort`: finds the region a query is in (the smallest holding both ends),
/// sends walk, bike and car to its street engine and transit to its transit engine, answers stop
/// lookups and searches from the regions' place indexes, and counts every leg query by mode.
public struct RegionRouter: RoutingPort {
    let regions: RegionRegistry
    let counters: DaemonCounters

    public init(regions: RegionRegistry, counters: DaemonCounters) {
        self.regions = regions
        self.counters = counters
    }

    public func leg(for query: LegQuery) async throws -> RouteLeg {
        try Task.checkCancellation()
        counters.countRoutingQuery(query.mode)
        let region = try regions.tripRegion(from: query.from, to: query.to)
        if query.mode == .transit { return try await streetTimedTransit(in: region).leg(for: query) }
        return try await region.legSource(for: query.mode).leg(for: query)
    }

    /// Counted as one query of the mode, however many searches the engine makes.
    public func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] {
        try Task.checkCancellation()
        counters.countRoutingQuery(query.mode)
        let region = try regions.tripRegion(from: query.from, to: query.to)
        if query.mode == .transit { return try await streetTimedTransit(in: region).alternatives(for: query, count: count) }
        return try await region.legSource(for: query.mode).alternatives(for: query, count: count)
    }

    /// The region's transit engine with its end walks timed on the region's streets; when the
    /// streets cannot be opened (their worker is missing), the engine's own estimate: a transit
    /// answer is still better than none, and the walk legs say what failed.
    private func streetTimedTransit(in region: RegionHandle) throws -> StreetTimedTransit {
        let transit = try region.legSource(for: .transit)
        return StreetTimedTransit(transit: transit, streets: try? region.legSource(for: .walk))
    }

    /// Only transit legs have live data; a leg whose region or engine is gone stays as it was.
    public func liveLeg(_ leg: RouteLeg, for query: LegQuery) async -> RouteLeg {
        guard leg.mode == .transit, !leg.rides.isEmpty,
              let region = try? regions.tripRegion(from: query.from, to: query.to),
              let source = try? region.legSource(for: .transit) else { return leg }
        return source.liveLeg(leg)
    }

    public func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
        guard let region = try regions.handles(containing: coordinate).first(where: \.manifest.hasTransit) else { return [] }
        do {
            return try region.placeIndex().nearbyStops(around: coordinate, radius: radius, limit: limit)
                .map { Place(name: $0.name, coordinate: $0.coordinate, kind: .transitStop) }
        } catch let error as StreetsError {
            throw RoutingError.engineFailure(error.description)
        }
    }

    /// Asked of the transit engines of the regions holding both the ride's ends, smallest first
    /// (as a leg's region is chosen), until one knows the trip: with a city inside a country,
    /// or two regions overlapping, the first region holding the boarding stop may not have it.
    public func calls(ofTripOf ride: TransitRide) async -> [TripCall] {
        let holding = (try? regions.handles(containing: ride.boarding.coordinate)) ?? []
        for region in holding where region.manifest.hasTransit && region.contains(ride.alighting.coordinate) {
            if let source = try? region.legSource(for: .transit) {
                let calls = source.calls(ofTripOf: ride)
                if !calls.isEmpty { return calls }
            }
        }
        return []
    }

    public func search(_ text: String, near: Coordinate?) async throws -> [Place] {
        try regions.search(text, near: near, preferring: near, limit: 10).map(\.result.place)
    }
}

extension RegionLegSource {
    /// An engine with one answer per question (Routino: the quickest route) gives that one.
    public func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] {
        [try await leg(for: query)]
    }

    /// An engine without live data (streets) knows no more than the leg says.
    public func liveLeg(_ leg: RouteLeg) -> RouteLeg { leg }

    public func applyRealtime(_ feeds: [RealtimeFeed], now: Date) -> RealtimeApplyReport? { nil }

    public func tickets(for rides: [TransitRide]) -> FareTickets? { nil }

    public func calls(ofTripOf ride: TransitRide) -> [TripCall] { [] }
}
