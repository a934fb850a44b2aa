import Foundation
import MapRendering
import Planner
import Streets
import Synchronization
import Transit

/// What pictures and geometry need from a region's files beyond routing — its street layer and
/// its rides' shapes, each read once per region version and kept — and the geometry and
/// pictures made with them.
public final class RegionMapData: Sendable {
    private let regions: RegionRegistry
    private struct Loaded: Sendable {
        /// The version directory the data was read from.
        var version: URL
        var streets: Result<[StreetLine], StreetsError>
        var shapes: RideShapes?
    }
    private let loaded = Mutex<[String: Loaded]>([:])
    /// Where pictures are drawn: one core fewer than the machine has (at least one), so that
    /// drawing never takes the threads that answer requests.
    private let drawing = CPUWorkPool(name: "usefulmapd-draw", width: ProcessInfo.processInfo.activeProcessorCount - 1)

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
        // The region holding the plan's start (routing already required one); none when it was removed since.
        guard let region = try? regions.handles(containing: coordinate).first else { return nil }
        let directory = region.directory
        if let cached = loaded.withLock({ $0[region.name] }), cached.version == directory { return cached }
        let data = Loaded(version: directory,
                          streets: Result { try StreetLayer.read(regionDirectory: directory) ?? [] }.mapError { $0 as? StreetsError ?? .streetLayerUnreadable("\(directory.path): \($0)") },
                          shapes: try? RideShapes(regionDirectory: directory))
        loaded.withLock { $0[region.name] = data }
        return data
    }
}

// MARK: - Geometry and pictures

extension RegionMapData {
    /// The plan's lines, rides along their feed's shapes where the region has them.
    /// - parameter toleranceM: Ramer–Douglas–Peucker metres; nil for the default.
    /// - parameter now: the start of a leave-now plan without dated legs.
    /// - throws: `DaemonError.invalidParams` for a negative or non-finite tolerance.
    public func geometry(of plan: RoutePlan, toleranceM: Double?, now: Date) throws -> PlanGeometry {
        let tolerance = toleranceM ?? PlanGeometry.defaultToleranceMetres
        guard tolerance.isFinite, tolerance >= 0 else {
            throw DaemonError.invalidParams("tolerance_m \(tolerance) must be 0 or more metres")
        }
        let times = plan.schedule(startingAt: plan.timePreference == .leaveNow ? now : nil)
        return PlanGeometry(plan: plan, times: times, toleranceMetres: tolerance,
                            rideShape: rideShapes(near: plan.nodes[0].place.coordinate))
    }

    /// A picture drawn, and how long the drawing took.
    public struct Drawing: Sendable {
        public var bytes: Data
        public var request: MapPictureRequest
        public var milliseconds: Double
    }

    /// Draws `scene` on the streets around `coordinate`, on the drawing pool (`CPUWorkPool`).
    /// - throws: `MapRenderingError`, `StreetsError.streetLayerUnreadable`, `CancellationError`.
    public func drawing(_ scene: MapScene, near coordinate: Coordinate, _ request: MapPictureRequest) async throws -> Drawing {
        try await drawing.run { [self] in
            let streets = try streets(near: coordinate)
            let start = DispatchTime.now().uptimeNanoseconds
            let bytes = try MapRenderer.render(scene, streets: streets, width: request.width, height: request.height,
                                               format: request.format)
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            return Drawing(bytes: bytes, request: request, milliseconds: milliseconds)
        }
    }
}

/// The picture a request asks for, with defaults, checked before any work is done.
public struct MapPictureRequest: Sendable {
    public var format: MapImageFormat
    public var width: Int
    public var height: Int

    /// - parameter width: default 800; `height` default 600.
    /// - throws: `MapRenderingError.invalidSize`.
    public init(format: MapImageFormat, width: Int?, height: Int?) throws {
        self.format = format
        self.width = width ?? 800
        self.height = height ?? 600
        guard MapRenderer.sizeRange.contains(self.width), MapRenderer.sizeRange.contains(self.height) else {
            throw MapRenderingError.invalidSize(width: self.width, height: self.height)
        }
    }
}

extension MapRenderingError: CodedError {}
