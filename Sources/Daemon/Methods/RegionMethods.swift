import Fetching
import Foundation
import Glibc
import Planner
import Synchronization
import Streets
import WireProtocol

/// `region.import` (streams `progress`), `region.list`, `region.set`, `region.remove`.
struct RegionMethods: Sendable {
    /// Imports and settings (`region.import`, `region.set`).
    let imports: RegionImportService
    /// Fetches the sources given by URL.
    let downloader: SourceDownloader
    /// Checks regions' sources and rebuilds what changed.
    let updater: RegionUpdater
    /// Each region's last check, shown by `region.list`.
    let checks: RegionCheckLog
    let regions: RegionRegistry
    let events: EventHub
    let refresher: BackgroundRefresher
    /// Stops polling a removed region's realtime feeds.
    let realtime: RealtimePoller
    /// Looks at the new feeds' last days after an update.
    let expiry: FeedExpiryWatcher
    /// Today, for the service hours a region's description shows by default.
    let clock: any WallClock

    func register(in table: inout MethodTable) {
        table.register(Endpoints.regionImport) { params, context in
            // Files passed open are taken first, so a refused request still consumes its own.
            let descriptors = try params.passedFiles == true ? (PassedFiles.current ?? PassedFiles()).take(1 + params.gtfs.count) : nil
            let order = RegionImportOrder(name: params.name, osm: params.osm, gtfs: params.gtfs, force: params.force ?? false,
                                          timeZone: params.timeZone, noTransit: params.noTransit ?? false, descriptors: descriptors)
            let outcome = try await imports.importRegion(order) { context.notify(WireMethod.progressNotification, $0.fields) }
            return RegionImportDocument(region: try regions.document(of: outcome.manifest, on: clock.now()), skipped: outcome.skipped,
                                        counts: outcome.manifest.counts,
                                        importDurationS: WireDocuments.milliseconds(outcome.manifest.importDuration),
                                        notes: outcome.notes)
        }
        table.register(Endpoints.regionUpdate) { params, _ in
            try await update(params)
        }
        table.register(Endpoints.regionList) { params, _ in
            RegionListDocument(regions: try regions.documents(onDate: params.date, now: clock.now()).map { region in
                var region = region
                region.lastCheck = checks.document(of: region.name)
                return region
            })
        }
        table.register(Endpoints.regionSet) { params, _ in
            let manifest = try await imports.set(region: params.name, timeZone: params.timeZone, realtime: params.realtime,
                                                 intervalSeconds: params.realtimeIntervalS)
            return try regions.document(of: manifest, on: clock.now())
        }
        table.register(Endpoints.regionRemove) { params, _ in
            do {
                try regions.catalog.remove(named: params.name)
            } catch StreetsError.regionNotFound(let name) {
                throw DaemonError.notFound("no region named \(name)")
            }
            downloader.removeUnused(region: params.name, keeping: nil)
            checks.forget(params.name)
            regions.invalidate(params.name)
            await realtime.remove(region: params.name)
            events.publish(.regionRemoved(region: params.name))
            return RemovedDocument(removed: params.name)
        }
    }

    /// `region.update`: each region in turn; one that fails keeps serving and says why.
    private func update(_ params: Params.RegionUpdate) async throws -> RegionUpdateDocument {
        let all = try regions.catalog.regions()
        let names = params.names ?? []
        for name in names where !all.contains(where: { $0.name == name }) {
            throw DaemonError.notFound("no region named \(name) (imported: \(all.map(\.name).joined(separator: ", ")))")
        }
        var feed: Int? = nil
        if let given = params.feed {
            guard names.count == 1, let manifest = all.first(where: { $0.name == names[0] }) else {
                throw DaemonError.invalidParams("feed \"\(given)\" needs exactly one region named (umctl region update NAME --feed FEED)")
            }
            let feeds = GTFSFeedNames(manifest)
            feed = feeds.positions(of: try feeds.canonical(given)).first
        }
        var results: [RegionUpdateResult] = []
        for manifest in all where names.isEmpty || names.contains(manifest.name) {
            let result = await update(manifest, force: params.force ?? false, feed: feed)
            checks.record(result, at: Date())
            results.append(result)
        }
        return RegionUpdateDocument(regions: results)
    }

    /// Checks one region (only its GTFS feed at position `feed`, from 0, when given) and rebuilds
    /// what changed; publishes and refreshes as an import does.
    func update(_ manifest: RegionManifest, force: Bool, feed: Int? = nil) async -> RegionUpdateResult {
        let name = manifest.name, events = self.events, updater = self.updater, stop = CancellationFlag()
        do {
            let outcome = try await withTaskCancellationHandler {
                try await CPUWorkPool.blocking.run {
                    try updater.update(manifest, force: force, feed: feed, isCancelled: stop.isSet) { progress in
                        events.publish(.importProgress(.init(region: name, phase: progress.phase, detail: progress.detail,
                                                             fraction: progress.fraction, overall: progress.overall)))
                    }
                }
            } onCancel: {
                stop.set()
            }
            let sources = outcome.checks.filter(\.checked).map { check in
                SourceCheckDocument(role: check.role, source: check.shown, changed: check.changed,
                                    error: check.error.map { RequestDispatcher.wireError(from: $0) })
            }
            if let result = outcome.result {
                downloader.removeUnused(region: name, keeping: result.manifest)
                regions.invalidate(name)
                events.publish(.regionImported(region: name, skipped: false, rebuilt: outcome.rebuilt.rawValue))
                if result.manifest.hasTransit {
                    await refresher.timetableChanged(region: name)
                    await expiry.check()  // a new feed has new last days
                }
            }
            return RegionUpdateResult(name: name, rebuilt: outcome.rebuilt.rawValue, sources: sources,
                                      error: outcome.failure.map { RequestDispatcher.wireError(from: $0) })
        } catch {
            return RegionUpdateResult(name: name, rebuilt: RegionUpdater.Rebuild.nothing.rawValue, sources: [],
                                      error: RequestDispatcher.wireError(from: error))
        }
    }
}
