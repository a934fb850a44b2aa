import Foundation
import Streets
import WireProtocol

extension DaemonServices {
    /// `region.import` (streams `progress`), `region.list`, `region.set`, `region.remove`.
    func regionHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .regionImport: { [self] context in
                let params = try context.params(Params.RegionImport.self)
                let request = try RegionImportRequest(params, current: try? regions.catalog.region(named: params.name))
                var steps: [RegionImportStep] = []
                if !request.feeds.isEmpty {
                    guard let transitImportStep else {
                        throw WireError(.unsupportedInRegion, "this build of usefulmapd cannot import GTFS feeds yet")
                    }
                    steps.append(transitImportStep(request.feeds))
                }
                let importer = RegionImporter(dataDirectory: dataDirectory)
                let events = self.events
                let name = params.name
                let importSteps = steps
                let result = try await runBlocking("usefulmapd-import") {
                    try importer.importRegion(name: name, osm: URL(fileURLWithPath: params.osm), additionalSteps: importSteps,
                                              timeZone: request.timeZone?.zone,
                                              timeZoneSource: request.timeZone?.source ?? "given with --time-zone",
                                              force: params.force ?? false) { progress in
                        var fields: [String: JSONValue] = ["region": .string(name), "phase": .string(progress.phase),
                                                           "detail": .string(progress.detail)]
                        fields["fraction"] = progress.fraction.map(JSONValue.number) ?? .null
                        context.notify(WireMethod.progressNotification, fields)
                        events.publish("import_progress", fields)
                    }
                }
                regions.invalidate(name)
                events.publish("region_imported", ["region": .string(name), "skipped": .bool(result.skipped)])
                if !result.skipped, !request.feeds.isEmpty { await refresher.timetableChanged(region: name) }
                var document = try JSONValue(encoding: regions.document(of: result.manifest))
                if case .object(var fields) = document {
                    fields["skipped"] = .bool(result.skipped)
                    fields["counts"] = .object(result.manifest.counts.mapValues { .number(Double($0)) })
                    fields["import_duration_s"] = .number(result.manifest.importDuration)
                    fields["notes"] = .array(request.notes.map(JSONValue.string))
                    document = .object(fields)
                }
                return document
            },
            .regionList: { [self] _ in
                .object(["regions": try JSONValue(encoding: try regions.handles().map { $0.document() })])
            },
            .regionSet: { [self] context in
                let params = try context.params(Params.RegionSet.self)
                guard let zone = params.timeZone else { throw DaemonError.invalidParams("nothing to set: give time_zone") }
                do {
                    try regions.catalog.setTimeZone(zone, ofRegion: params.name)
                } catch StreetsError.regionNotFound(let name) {
                    throw DaemonError.notFound("no region named \(name)")
                }
                regions.invalidate(params.name)
                events.publish("region_changed", ["region": .string(params.name), "time_zone": .string(zone)])
                return try JSONValue(encoding: regions.handle(named: params.name).document())
            },
            .regionRemove: { [self] context in
                let params = try context.params(Params.Name.self)
                do {
                    try regions.catalog.remove(named: params.name)
                } catch StreetsError.regionNotFound(let name) {
                    throw DaemonError.notFound("no region named \(name)")
                }
                regions.invalidate(params.name)
                events.publish("region_removed", ["region": .string(params.name)])
                return .object(["removed": .string(params.name)])
            },
        ]
    }
}
