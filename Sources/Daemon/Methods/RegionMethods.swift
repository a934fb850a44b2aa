import Fetching
import Foundation
import Glibc
import Planner
import Synchronization
import Streets
import WireProtocol

/// `region.import` (streams `progress`), `region.list`, `region.set`, `region.remove`.
struct RegionMethods: Sendable {
    let importer: RegionImporter
    /// The sources' sizes and the free space a pipe's copy leaves.
    let limits: ImportSourceLimits
    /// Fetches the sources given by URL.
    let downloader: SourceDownloader
    /// Checks regions' sources and rebuilds what changed.
    let updater: RegionUpdater
    /// Each region's last check, shown by `region.list`.
    let checks: RegionCheckLog
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
            let current = try? regions.catalog.region(named: params.name)
            let byURL = ([params.osm] + params.gtfs).contains(where: SourceURL.isURL)
            do {  // the request is checked before a pipe is copied or a source fetched
                guard RegionCatalog.isValidName(params.name) else { throw StreetsError.invalidRegionName(params.name) }
                if byURL, params.passedFiles == true {
                    throw DaemonError.invalidParams("passed_files cannot go with sources given by URL: give the files by path")
                }
                planned = try RegionImportRequest(params, current: current)
            } catch {
                descriptors.forEach { close($0) }
                throw error
            }
            let passed: PassedImportSources?
            if params.passedFiles == true {
                let directory = importer.dataDirectory, limits = self.limits, stop = CancellationFlag()
                passed = try await withTaskCancellationHandler {
                    try await CPUWorkPool.blocking.run {  // a pipe is read to its end
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
            let fetched = byURL ? try await fetchSources(params, current: current, context: context) : [:]
            if byURL, !params.gtfs.isEmpty { planned.feeds = params.gtfs.map { fetched[$0]?.file ?? URL(fileURLWithPath: $0) } }
            let request = planned
            var importer = importer
            importer.givenPaths = passed?.givenPaths ?? [:]
            // A kept feed fetched by URL keeps its URL and validators.
            for source in current?.sources ?? [] { importer.origins[source.path] = source.origin }
            for source in fetched.values { importer.origins[source.file.path] = source.origin }
            let osm = fetched[params.osm]?.file ?? passed?.osm ?? URL(fileURLWithPath: params.osm)
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
                result = try await withTaskCancellationHandler { try await CPUWorkPool.blocking.run {
                    // What the import built and freed (the place index's and the feed's working
                    // tables) stays in malloc's arenas otherwise: 138 MiB of a twelve-city region.
                    defer { MemoryTrim.releaseFreePages() }
                    return try reader.importRegion(name: name, osm: osm, additionalSteps: importSteps,
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
                if byURL { downloader.removeUnused(region: name, keeping: current) }
                throw passed?.namingTheUsersFiles(error) ?? error  // never the daemon's own links
            }
            if byURL || current?.sources.contains(where: { $0.origin != nil }) == true {
                downloader.removeUnused(region: name, keeping: result.manifest)
            }
            regions.invalidate(name)
            events.publish(.regionImported(region: name, skipped: result.skipped, rebuilt: nil))
            if !result.skipped, !request.feeds.isEmpty {
                await refresher.timetableChanged(region: name)
                await expiry.check()
            }
            var notes = request.notes
            if !result.skipped, let beyond = result.manifest.counts[TransitEngine.stopsBeyondStreets], beyond > 0 {
                notes.append("\(beyond) transit stop\(beyond == 1 ? " is" : "s are") farther than \(Int(StreetRouter.snapLimit)) m "
                             + "from every street of the OpenStreetMap extract; search leaves them out")
            }
            if !result.skipped, let straight = result.manifest.counts[TransitEngine.straightLineFootpaths], straight > 0 {
                notes.append("\(straight) footpath\(straight == 1 ? "" : "s") between stops could not be timed on the streets "
                             + "and \(straight == 1 ? "is" : "are") timed as a straight line (`status` shows the count)")
            }
            return RegionImportDocument(region: try regions.document(of: result.manifest, on: clock.now()), skipped: result.skipped,
                                        counts: result.manifest.counts, importDurationS: WireDocuments.milliseconds(result.manifest.importDuration),
                                        notes: notes)
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
            downloader.removeUnused(region: params.name, keeping: nil)
            checks.forget(params.name)
            regions.invalidate(params.name)
            await realtime.remove(region: params.name)
            events.publish(.regionRemoved(region: params.name))
            return RemovedDocument(removed: params.name)
        }
    }

    /// Fetches the sources given by URL (the OSM extract first, then the feeds), reporting
    /// progress like the import does; a client that goes cancels the transfer.
    /// - returns: URL → the fetched copy.
    private func fetchSources(_ params: Params.RegionImport, current: RegionManifest?,
                              context: RequestContext) async throws -> [String: SourceDownloader.Fetched] {
        let wanted = [(params.osm, "osm", limits.osm)] + params.gtfs.map { ($0, "gtfs", limits.feed) }
        let downloader = self.downloader, events = self.events, name = params.name, stop = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await CPUWorkPool.blocking.run {
                var fetched: [String: SourceDownloader.Fetched] = [:]
                for (url, role, limit) in wanted where SourceURL.isURL(url) && fetched[url] == nil {
                    let shown = SourceURL.redacted(url)
                    let previous = current?.sources.first { $0.origin?.url == url }
                    let reported = Mutex(-1)  // the MiB last reported: one notification per MiB
                    fetched[url] = try downloader.fetch(url, region: name, role: role, limit: limit, previous: previous) {
                        received, expected in
                        guard reported.withLock({ last in
                            defer { last = received >> 20 }
                            return last != received >> 20
                        }) else { return !stop.isSet() }
                        let event = DaemonEvent.ImportProgress(
                            region: name, phase: "downloading",
                            detail: "\(shown): \(received >> 20)" + (expected.map { " of \($0 >> 20)" } ?? "") + " MiB",
                            fraction: expected.map { Double(received) / Double(max(1, $0)) }, overall: nil)
                        context.notify(WireMethod.progressNotification, event.fields)
                        events.publish(.importProgress(event))
                        return !stop.isSet()
                    }
                }
                return fetched
            }
        } onCancel: {
            stop.set()
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
