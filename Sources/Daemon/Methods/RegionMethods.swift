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
    /// `region.update`: checks regions' sources and rebuilds what changed.
    let updates: RegionUpdateService
    /// Each region's last check, shown by `region.list`.
    let checks: RegionCheckLog
    let regions: RegionRegistry
    let events: EventHub
    /// Stops polling a removed region's realtime feeds.
    let realtime: RealtimePoller
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
            let outcomes = try await updates.update(names: params.names ?? [], force: params.force ?? false, feed: params.feed) { [checks] in
                checks.record(WireDocuments.regionUpdate($0), at: Date())
            }
            return RegionUpdateDocument(regions: outcomes.map(WireDocuments.regionUpdate))
        }
        table.register(Endpoints.regionList) { params, _ in
            RegionListDocument(regions: try regions.documents(onDate: params.date, now: clock.now()).map { region in
                var region = region
                region.lastCheck = checks.document(of: region.name)
                return region
            })
        }
        table.register(Endpoints.regionSet) { params, _ in
            let feeds = params.realtime?.map(RealtimeFeedEntry.split).map { RealtimeSource(url: $0.source, gtfsFeed: $0.gtfsFeed) }
            let manifest = try await imports.set(region: params.name, timeZone: params.timeZone, realtime: feeds,
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
}
