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
        var streets: [StreetLine]
        var shapes: RideShapes?
    }
    private let loaded = Mutex<[String: Loaded]>([:])

    public init(regions: RegionRegistry) {
        self.regions = regions
    }

    /// The streets of the region around `coordinate` (empty for a region imported before the
    /// street layer existed), and a lookup of its rides' shapes.
    /// - throws: `StreetsError.streetLayerUnreadable`, or what finding the region throws.
    public func data(near coordinate: Coordinate) throws -> (streets: [StreetLine], rideShape: @Sendable (TransitRide) -> PlanGeometry.RideShape?) {
        let region = try regions.primaryRegion(for: coordinate)
        if let cached = loaded.withLock({ $0[region.name] }), cached.version == region.importedAt {
            return (cached.streets, Self.lookup(cached.shapes))
        }
        let directory = regions.catalog.directory(of: region.name)
        let streets = try StreetLayer.read(regionDirectory: directory) ?? []
        // A region without transit (or with a timetable from before shapes were stored) draws rides through their stops.
        let shapes = try? RideShapes(regionDirectory: directory)
        loaded.withLock { $0[region.name] = Loaded(version: region.importedAt, streets: streets, shapes: shapes) }
        return (streets, Self.lookup(shapes))
    }

    private static func lookup(_ shapes: RideShapes?) -> @Sendable (TransitRide) -> PlanGeometry.RideShape? {
        { ride in shapes?.shape(of: ride) }
    }
}
