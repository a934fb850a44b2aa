import Foundation
import Streets
import WireProtocol

/// `region.import` (streams `progress`), `region.list`, `region.remove`.
struct RegionMethods: Sendable {
    let importer: RegionImporter
    let regions: RegionRegistry
    let events: EventHub
    /// Import steps for GTFS feeds; nil when this build has no transit importer.
    let transitImportStep: (@Sendable ([URL]) -> RegionImportStep)?

    func register(in table: inout MethodTable) {
        table.register(Endpoints.regionImport) { params, context in
            for path in [params.osm] + params.gtfs where !path.hasPrefix("/") {
                throw DaemonError.invalidParams("\(path) must be an absolute path (the daemon has its own working directory)")
            }
            var steps: [RegionImportStep] = []
            if !params.gtfs.isEmpty {
                guard let transitImportStep else {
                    throw WireError(.unsupportedInRegion, "this build of usefulmapd cannot import GTFS feeds yet")
                }
                steps.append(transitImportStep(params.gtfs.map { URL(fileURLWithPath: $0) }))
            }
            let events = self.events
            let name = params.name
            let importSteps = steps
            let result = try await runBlocking("usefulmapd-import") {
                try importer.importRegion(name: name, osm: URL(fileURLWithPath: params.osm), additionalSteps: importSteps,
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
            return RegionImportDocument(region: regions.document(of: result.manifest), skipped: result.skipped,
                                        counts: result.manifest.counts, importDurationS: result.manifest.importDuration)
        }
        table.register(Endpoints.regionList) { _, _ in
            RegionListDocument(regions: try regions.regions().map(regions.document(of:)))
        }
        table.register(Endpoints.regionRemove) { params, _ in
            do {
                try regions.catalog.remove(named: params.name)
            } catch StreetsError.regionNotFound(let name) {
                throw DaemonError.notFound("no region named \(name)")
            }
            regions.invalidate(params.name)
            events.publish("region_removed", ["region": .string(params.name)])
            return RemovedDocument(removed: params.name)
        }
    }
}
