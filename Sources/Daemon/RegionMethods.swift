import Foundation
import Glibc
import Planner
import Streets
import WireProtocol

/// `region.import` (streams `progress`), `region.list`, `region.set`, `region.remove`.
struct RegionMethods: Sendable {
    let importer: RegionImporter
    /// The sources' sizes and the free space a pipe's copy leaves.
    let limits: ImportSourceLimits
    let regions: RegionRegistry
    let events: EventHub
    /// The import step for GTFS feeds.
    let transitImportStep: @Sendable ([URL]) -> RegionImportStep
    let refresher: BackgroundRefresher
    /// Polls the regions' realtime feeds (`region set --realtime`).
    let realtime: RealtimePoller
    /// Looks at the new feeds' last days after an import.
    let expiry: FeedExpiryWatcher
    /// Today, for the service hours a region's description shows by default.
    let clock: any WallClock

    func register(in table: inout MethodTable) {
        table.register(Endpoints.regionImport) { params, context in
            // Files passed open are taken first, so a refused request still consumes its own.
            let descriptors = try params.passedFiles == true ? (PassedFiles.current ?? PassedFiles()).take(1 + params.gtfs.count) : []
            var planned: RegionImportRequest
            do {  // the request is checked before a pipe is copied
                guard RegionCatalog.isValidName(params.name) else { throw StreetsError.invalidRegionName(params.name) }
                planned = try RegionImportRequest(params, current: try? regions.catalog.region(named: params.name))
            } catch {
                descriptors.forEach { close($0) }
                throw error
            }
            let passed: PassedImportSources?
            if params.passedFiles == true {
                let directory = importer.dataDirectory, limits = self.limits, stop = CancellationFlag()
                passed = try await withTaskCancellationHandler {
                    try await runBlocking("usefulmapd-import-spool") {  // a pipe is read to its end
                        try PassedImportSources(osm: params.osm, gtfs: params.gtfs, descriptors: descriptors, under: directory,
                                                limits: limits, isCancelled: stop.isSet)
                    }
                } onCancel: {
                    stop.set()
                }
            } else {
                passed = nil
            }
            defer { passed?.remove() }
            if let passed, !params.gtfs.isEmpty { planned.feeds = passed.feeds }
            let request = planned
            var importer = importer
            importer.givenPaths = passed?.givenPaths ?? [:]
            let osm = passed?.osm ?? URL(fileURLWithPath: params.osm)
            var steps: [RegionImportStep] = []
            if !request.feeds.isEmpty {
                steps.append(transitImportStep(request.feeds))
            }
            let events = self.events
            let name = params.name
            // A client that goes (Ctrl-C) or a shutdown stops the import; the region stays as it was.
            let stop = CancellationFlag()
            importer.isCancelled = stop.isSet
            let importSteps = steps, reader = importer
            let result: RegionImportResult
            do {
                result = try await withTaskCancellationHandler { try await runBlocking("usefulmapd-import") {
                    try reader.importRegion(name: name, osm: osm, additionalSteps: importSteps,
                                            timeZone: request.timeZone?.zone,
                                            timeZoneSource: request.timeZone?.source ?? "given with --time-zone",
                                            force: params.force ?? false) { progress in
                        let event = DaemonEvent.ImportProgress(
                            region: name, phase: progress.phase,
                            detail: passed?.namingTheUsersFiles(progress.detail) ?? progress.detail,
                            fraction: progress.fraction, overall: progress.overall)
                        context.notify(WireMethod.progressNotification, event.fields)
                        events.publish(.importProgress(event))
                    }
                } } onCancel: {
                    stop.set()
                }
            } catch {
                throw passed?.namingTheUsersFiles(error) ?? error  // never the daemon's own links
            }
            regions.invalidate(name)
            events.publish(.regionImported(region: name, skipped: result.skipped))
            if !result.skipped, !request.feeds.isEmpty {
                await refresher.timetableChanged(region: name)
                await expiry.check()
            }
            var notes = request.notes
            if !result.skipped, let beyond = result.manifest.counts[TransitEngine.stopsBeyondStreets], beyond > 0 {
                notes.append("\(beyond) transit stop\(beyond == 1 ? " is" : "s are") farther than \(Int(StreetRouter.snapLimit)) m "
                             + "from every street of the OpenStreetMap extract; search leaves them out")
            }
            return RegionImportDocument(region: try regions.document(of: result.manifest, on: clock.now()), skipped: result.skipped,
                                        counts: result.manifest.counts, importDurationS: WireDocuments.whole(result.manifest.importDuration),
                                        notes: notes)
        }
        table.register(Endpoints.regionList) { params, _ in
            RegionListDocument(regions: try regions.documents(onDate: params.date, now: clock.now()))
        }
        table.register(Endpoints.regionSet) { params, _ in
            guard params.timeZone != nil || params.realtime != nil || params.realtimeIntervalS != nil else {
                throw DaemonError.invalidParams("nothing to set: give time_zone, realtime or realtime_interval_s")
            }
            let handle = try regions.handle(named: params.name)
            // Everything is checked before anything changes.
            if params.realtime != nil || params.realtimeIntervalS != nil {
                try await realtime.check(region: handle.name, feeds: params.realtime, intervalSeconds: params.realtimeIntervalS)
            }
            if let zone = params.timeZone {
                do {
                    try regions.catalog.setTimeZone(zone, ofRegion: params.name)
                } catch StreetsError.regionNotFound(let name) {
                    throw DaemonError.notFound("no region named \(name)")
                }
                regions.invalidate(params.name)
                events.publish(.regionChanged(region: params.name, timeZone: zone, realtimeFeeds: nil))
                // A new zone moves the service day every feed's days are counted from.
                await expiry.check()
            }
            if params.realtime != nil || params.realtimeIntervalS != nil {
                let settings = try await realtime.set(region: handle.name, feeds: params.realtime,
                                                      intervalSeconds: params.realtimeIntervalS)
                events.publish(.regionChanged(region: params.name, timeZone: nil, realtimeFeeds: settings?.feeds.count ?? 0))
            }
            return try regions.document(of: regions.handle(named: params.name).manifest, on: clock.now())
        }
        table.register(Endpoints.regionRemove) { params, _ in
            do {
                try regions.catalog.remove(named: params.name)
            } catch StreetsError.regionNotFound(let name) {
                throw DaemonError.notFound("no region named \(name)")
            }
            regions.invalidate(params.name)
            await realtime.remove(region: params.name)
            events.publish(.regionRemoved(region: params.name))
            return RemovedDocument(removed: params.name)
        }
    }
}
