import Foundation
import MapRendering
import Planner
import Store
import WireProtocol

extension DaemonServices {
    /// `plan.export`, `plan.map`, `compare.map`; `plan.show --geometry` shares `planGeometry`.
    func mapHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .planExport: { [self] context in
                let params = try context.params(Params.PlanExport.self)
                guard let format = PlanExport.Format(rawValue: params.format) else {
                    throw DaemonError.invalidParams("format \"\(params.format)\" must be geojson or gpx")
                }
                let outcome = try await plans.show(id: params.id)
                let geometry = try planGeometry(outcome.plan, toleranceM: params.toleranceM)
                let text = PlanExport.text(geometry, format: format, title: outcome.title,
                                           timeZone: regions.timeZone(for: outcome.plan.nodes.first?.place.coordinate))
                return try JSONValue(encoding: ExportDocument(id: outcome.id, format: format.rawValue,
                                                              mediaType: format.mediaType, content: text))
            },
            .planMap: { [self] context in
                let params = try context.params(Params.PlanMap.self)
                let request = try picture(params.picture)
                let outcome = try await plans.show(id: params.id)
                let origin = outcome.plan.nodes[0].place.coordinate
                let geometry = try planGeometry(outcome.plan, toleranceM: 0)
                guard !geometry.lines.isEmpty else { throw MapRenderingError.emptyScene }
                let scene = MapScene.plan(geometry, timeZone: regions.timeZone(for: origin))
                return try JSONValue(encoding: try render(scene, near: origin, request))
            },
            .compareMap: { [self] context in
                let params = try context.params(Params.CompareMap.self)
                let request = try picture(params.picture)
                let (document, comparisons, zone) = try await comparison(params.compare)
                let options = try comparisons.compactMap { comparison -> (mode: TravelMode, geometry: PlanGeometry)? in
                    guard let plan = comparison.plan else { return nil }
                    return (comparison.mode, try planGeometry(plan, toleranceM: 0))
                }
                guard let origin = options.first?.geometry.nodes.first?.coordinate else { throw MapRenderingError.emptyScene }
                let map = try render(.comparison(options, timeZone: zone), near: origin, request)
                return try JSONValue(encoding: CompareMapDocument(comparison: document, map: map))
            },
        ]
    }

    // MARK: - Shared with `compare` and `plan.show`

    /// Runs a comparison and records it in the route history.
    func comparison(_ params: Params.Compare) async throws -> (CompareDocument, [ModeComparison], TimeZone) {
        _ = try regions.requireRegions()
        let from = try resolver.resolve(params.from)
        let to = try resolver.resolve(params.to, near: from.place.coordinate)
        let zone = regions.timeZone(for: from.place.coordinate)
        let preference = try timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: zone)
        let comparisons = try await planner.compare(from: from, to: to, timePreference: preference,
                                                    pace: try pace(params.pace), currentLocation: location.current?.coordinate)
        let now = clock.now()
        let fastest = comparisons.first(where: \.isFastest)?.mode
        try store.recordRoute(RouteHistoryEntry(from: from.place, to: to.place, modes: fastest.map { [$0] } ?? [], date: now))
        let document = CompareDocument(
            from: WireDocuments.place(from.place), to: WireDocuments.place(to.place),
            options: comparisons.map { WireDocuments.compareOption($0, timeZone: zone, now: now) },
            timeZone: zone.identifier)
        return (document, comparisons, zone)
    }

    /// The plan's lines, rides along their feed's shapes where the region has them.
    /// - parameter toleranceM: Ramer–Douglas–Peucker metres; nil for the default.
    func planGeometry(_ plan: RoutePlan, toleranceM: Double?) throws -> PlanGeometry {
        let tolerance = toleranceM ?? PlanGeometry.defaultToleranceMetres
        guard tolerance.isFinite, tolerance >= 0 else {
            throw DaemonError.invalidParams("tolerance_m \(tolerance) must be 0 or more metres")
        }
        let rideShape = mapData.rideShapes(near: plan.nodes[0].place.coordinate)
        let times = plan.schedule(startingAt: plan.timePreference == .leaveNow ? clock.now() : nil)
        return PlanGeometry(plan: plan, times: times, toleranceMetres: tolerance, rideShape: rideShape)
    }

    /// The picture asked for, with defaults, checked before any work.
    func picture(_ params: Params.MapPicture) throws -> (format: MapImageFormat, width: Int, height: Int) {
        let text = params.format ?? MapImageFormat.png.rawValue
        guard let format = MapImageFormat(rawValue: text) else {
            throw DaemonError.invalidParams("format \"\(text)\" must be png or svg")
        }
        let width = params.width ?? 800, height = params.height ?? 600
        guard MapRenderer.sizeRange.contains(width), MapRenderer.sizeRange.contains(height) else {
            throw MapRenderingError.invalidSize(width: width, height: height)
        }
        return (format, width, height)
    }

    func render(_ scene: MapScene, near coordinate: Coordinate,
                _ request: (format: MapImageFormat, width: Int, height: Int)) throws -> MapImageDocument {
        let streets = try mapData.streets(near: coordinate)
        let start = DispatchTime.now().uptimeNanoseconds
        let bytes = try MapRenderer.render(scene, streets: streets, width: request.width, height: request.height,
                                           format: request.format)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        return MapImageDocument(format: request.format.rawValue, mediaType: request.format.mediaType,
                                width: request.width, height: request.height, data: bytes.base64EncodedString(),
                                renderMs: (milliseconds * 10).rounded() / 10)
    }
}

extension MapRenderingError: CodedError {}
