import Foundation
import MapRendering
import PlanCalendar
import Planner
import WireProtocol

/// `plan.export`, `plan.map` (`compare`'s picture and `plan.show --geometry` are with those methods).
struct MapMethods: Sendable {
    let plans: PlanCoordinator
    let regions: RegionRegistry
    let mapData: RegionMapData
    let input: WireInput
    let calendar: PlanCalendarExport

    /// `plan.export`'s iCalendar format (RFC 5545): one VEVENT per leg with times.
    static let calendarFormat = "ics"

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planExport) { params, _ in
            if params.format == Self.calendarFormat {
                let outcome = try await plans.show(id: params.id)
                return ExportDocument(id: outcome.id, format: Self.calendarFormat, mediaType: CalendarText.mediaType,
                                      content: calendar.text(outcome, now: input.clock.now()))
            }
            guard let format = PlanExport.Format(rawValue: params.format) else {
                throw DaemonError.invalidParams("format \"\(params.format)\" must be geojson, gpx or ics")
            }
            let outcome = try await plans.show(id: params.id)
            let geometry = try mapData.geometry(of: outcome.plan, toleranceM: params.toleranceM, now: input.clock.now())
            let text = PlanExport.text(geometry, format: format, title: outcome.title, timeZone: regions.timeZone(of: outcome.plan))
            return ExportDocument(id: outcome.id, format: format.rawValue, mediaType: format.mediaType, content: text)
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
