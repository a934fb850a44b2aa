import Foundation
import MapRendering
import PlanCalendar
import Planner
import WireProtocol

/// `plan.export`, `plan.map` (`compare`'s picture and `plan.show --geometry` are with those methods).
struct MapMethods: Sendable {
    let plans: PlanRepository
    let regions: RegionRegistry
    let mapData: RegionMapData
    let input: WireInput
    let calendar: PlanCalendarExport

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planExport) { params, _ in
            let format: PlanExport.Format
            switch params.format {
            case .ics:  // iCalendar (RFC 5545): one VEVENT per leg with times
                let outcome = try await plans.show(id: params.id)
                return ExportDocument(id: outcome.id, format: params.format, mediaType: CalendarText.mediaType,
                                      content: calendar.text(outcome, now: input.clock.now()))
            case .geojson: format = .geojson
            case .gpx: format = .gpx
            }
            let outcome = try await plans.show(id: params.id)
            let geometry = try mapData.geometry(of: outcome.plan, toleranceM: params.toleranceM, now: input.clock.now())
            let text = PlanExport.text(geometry, format: format, title: outcome.title, timeZone: regions.timeZone(of: outcome.plan))
            return ExportDocument(id: outcome.id, format: params.format, mediaType: format.mediaType, content: text)
        }
        table.register(Endpoints.planMap) { params, _ in
            let request = try MapPictureRequest(params.picture)
            let outcome = try await plans.show(id: params.id)
            let geometry = try mapData.geometry(of: outcome.plan, toleranceM: 0, now: input.clock.now())
            guard !geometry.lines.isEmpty else { throw MapRenderingError.emptyScene }
            let scene = MapScene.plan(geometry, timeZone: regions.timeZone(of: outcome.plan))
            return try await mapData.picture(scene, near: outcome.plan.nodes[0].place.coordinate, request)
        }
    }
}
