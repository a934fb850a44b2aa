import Foundation
import Planner
import Streets
import Synchronization
import Transit

/// What pictures and geometry need from a region's files beyond routing: its street layer and
/// its rides' shapes, each read once per region version and kept.
public final class RegionMapData: Sendable {
    private let regions: RegionRegistry
    private struct Loaded: Sendable {
        var version: Date
        var streets: Result<[StreetLine], StreetsError>
        var shapes: RideShapes?
    }
    private let loaded = Mutex<[String: Loaded]>([:])

    public init(regions: RegionRegistry) {
        self.regions = regions
    }

    /// The streets around `coordinate`; empty when no region holds it or its import predates the layer.
    /// - throws: `StreetsError.streetLayerUnreadable`.
    public func streets(near coordinate: Coordinate) throws -> [StreetLine] {
        try data(near: coordinate)?.streets.get() ?? []
    }

    /// The feed's shape of a ride in the region around `coordinate`; nil where there is none
    /// (no region, no transit, a timetable from before shapes were stored): the ride is then
    /// drawn through its stops.
    public func rideShapes(near coordinate: Coordinate) -> @Sendable (TransitRide) -> PlanGeometry.RideShape? {
        let shapes = data(near: coordinate)?.shapes
        return { ride in shapes?.shape(of: ride) }
    }

    private func data(near coordinate: Coordinate) -> Loaded? {
        guard let region = try? regions.primaryRegion(for: coordinate) else { return nil }
        if let cached = loaded.withLock({ $0[region.name] }), cached.version == region.importedAt { return cached }
        let directory = regions.catalog.directory(of: region.name)
        let data = Loaded(version: region.importedAt,
                          streets: Result { try StreetLayer.read(regionDirectory: directory) ?? [] }.mapError { $0 as? StreetsError ?? .streetLayerUnreadable("\(directory.path): \($0)") },
                          shapes: try? RideShapes(regionDirectory: directory))
        loaded.withLock { $0[region.name] = data }
        return data
    }
}
