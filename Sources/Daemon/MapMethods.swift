import Foundation
import MapRendering
import Planner
import WireProtocol

extension DaemonServices {
    /// `plan.export`, `plan.map`, `compare.map`.
    func mapHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .planExport: { [self] context in
                let params = try context.params(Params.PlanExport.self)
                guard let format = PlanExport.Format(rawValue: params.format) else {
                    throw DaemonError.invalidParams("format \"\(params.format)\" must be geojson or gpx")
                }
                let outcome = try await plans.show(id: params.id)
                let geometry = try mapData.geometry(of: outcome.plan, toleranceM: params.toleranceM, now: clock.now())
                let text = PlanExport.text(geometry, format: format, title: outcome.title,
                                           timeZone: regions.timeZone(for: outcome.plan.nodes.first?.place.coordinate))
                return try JSONValue(encoding: ExportDocument(id: outcome.id, format: format.rawValue,
                                                              mediaType: format.mediaType, content: text))
            },
            .planMap: { [self] context in
                let params = try context.params(Params.PlanMap.self)
                let request = try MapPictureRequest(params.picture)
                let outcome = try await plans.show(id: params.id)
                let origin = outcome.plan.nodes[0].place.coordinate
                let geometry = try mapData.geometry(of: outcome.plan, toleranceM: 0, now: clock.now())
                guard !geometry.lines.isEmpty else { throw MapRenderingError.emptyScene }
                let scene = MapScene.plan(geometry, timeZone: regions.timeZone(for: origin))
                return try JSONValue(encoding: try mapData.picture(scene, near: origin, request))
            },
            .compareMap: { [self] context in
                let params = try context.params(Params.CompareMap.self)
                let request = try MapPictureRequest(params.picture)
                let (document, comparisons, zone) = try await comparison(params.compare)
                let options = try comparisons.compactMap { comparison -> (mode: TravelMode, geometry: PlanGeometry)? in
                    guard let plan = comparison.plan else { return nil }
                    return (comparison.mode, try mapData.geometry(of: plan, toleranceM: 0, now: clock.now()))
                }
                guard let origin = options.first?.geometry.nodes.first?.coordinate else { throw MapRenderingError.emptyScene }
                let map = try mapData.picture(.comparison(options, timeZone: zone), near: origin, request)
                return try JSONValue(encoding: CompareMapDocument(comparison: document, map: map))
            },
        ]
    }
}
