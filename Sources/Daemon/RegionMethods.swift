import Foundation
import Streets
import WireProtocol

extension DaemonServices {
    /// `region.import` (streams `progress`), `region.list`, `region.remove`.
    func regionHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .regionImport: { [self] context in
                let params = try context.params(Params.RegionImport.self)
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
                let importer = RegionImporter(dataDirectory: dataDirectory)
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
                var document = try JSONValue(encoding: regions.document(of: result.manifest))
                if case .object(var fields) = document {
                    fields["skipped"] = .bool(result.skipped)
                    fields["counts"] = .object(result.manifest.counts.mapValues { .number(Double($0)) })
                    fields["import_duration_s"] = .number(result.manifest.importDuration)
                    document = .object(fields)
                }
                return document
            },
            .regionList: { [self] _ in
                .object(["regions": try JSONValue(encoding: try regions.regions().map(regions.document(of:)))])
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
