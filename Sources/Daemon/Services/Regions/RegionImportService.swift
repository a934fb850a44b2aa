import Fetching
import Foundation
import Planner
import Streets
import Synchronization
import Transit

/// What `region.import` is asked, as the service takes it (the handler translates the params).
struct RegionImportOrder: Sendable {
    var name: String
    /// An absolute path or an `http(s)://` URL; with `descriptors`, only the name of the file passed open.
    var osm: String
    var gtfs: [String]
    var force: Bool
    var timeZone: String?
    var noTransit: Bool
    /// The files that came open with the request (`SCM_RIGHTS`), `osm` first; nil when given by path or URL.
    var descriptors: [Int32]?

    var byURL: Bool { ([osm] + gtfs).contains(where: SourceURL.isURL) }
}

/// Imports and settings of regions: every rule of `region.import` (the request checked before a
/// pipe is copied or a source fetched, files passed open, sources fetched by URL, the import on
/// the blocking pool with the memory it freed given back, the events, the plans refreshed and
/// the feeds' last days looked at) and of `region.set`. Knows no request: progress goes to the
/// `progress` closure the caller gives.
struct RegionImportService: Sendable {
    let importer: RegionImporter
    /// The sources' sizes and the free space a pipe's copy leaves.
    let limits: ImportSourceLimits
    /// Fetches the sources given by URL.
    let downloader: SourceDownloader
    let regions: RegionRegistry
    let events: EventHub
    /// The import step for GTFS feeds.
    let transitImportStep: @Sendable ([URL]) -> RegionImportStep
    let refresher: BackgroundRefresher
    /// Polls the regions' realtime feeds (`region set --realtime`).
    let realtime: RealtimePoller
    /// Looks at the new feeds' last days after an import.
    let expiry: FeedExpiryWatcher

    /// What an import did: the region's manifest, whether nothing changed, and notes for the user.
    struct Outcome: Sendable {
        var manifest: RegionManifest
        var skipped: Bool
        var notes: [String]
    }

    /// Imports (or re-imports) a region; `progress` gets each step as it is also published.
    /// A cancelled task (the client went, the daemon stops) stops the import: the region stays as it was.
    /// - throws: `StreetsError`, `DaemonError.invalidParams` for a refused request (its passed files closed).
    func importRegion(_ order: RegionImportOrder,
                      progress: @escaping @Sendable (DaemonEvent.ImportProgress) -> Void) async throws -> Outcome {
        var planned: RegionImportRequest
        let current = try? regions.catalog.region(named: order.name)
        let byURL = order.byURL
        do {  // the request is checked before a pipe is copied or a source fetched
            guard RegionCatalog.isValidName(order.name) else { throw StreetsError.invalidRegionName(order.name) }
            if byURL, order.descriptors != nil {
                throw DaemonError.invalidParams("passed_files cannot go with sources given by URL: give the files by path")
            }
            planned = try RegionImportRequest(order, current: current)
        } catch {
            order.descriptors?.forEach { close($0) }
            throw error
        }
        let passed = try await passedSources(order)
        defer { passed?.remove() }
        if let passed, !order.gtfs.isEmpty { planned.feeds = passed.feeds }
        let fetched = byURL ? try await fetchSources(order, current: current, progress: progress) : [:]
        if byURL, !order.gtfs.isEmpty { planned.feeds = order.gtfs.map { fetched[$0]?.file ?? URL(fileURLWithPath: $0) } }
        let request = planned
        var importer = importer
        importer.givenPaths = passed?.givenPaths ?? [:]
        // A kept feed fetched by URL keeps its URL and validators.
        for source in current?.sources ?? [] { importer.origins[source.path] = source.origin }
        for source in fetched.values { importer.origins[source.file.path] = source.origin }
        let osm = fetched[order.osm]?.file ?? passed?.osm ?? URL(fileURLWithPath: order.osm)
        var steps: [RegionImportStep] = []
        if !request.feeds.isEmpty {
            steps.append(transitImportStep(request.feeds))
        }
        let events = self.events
        let name = order.name
        // A client that goes (Ctrl-C) or a shutdown stops the import; the region stays as it was.
        // The import runs on a pool thread, which cannot see this task's cancellation: `stop` carries it there.
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
                                               force: order.force) { step in
                    let event = DaemonEvent.ImportProgress(
                        region: name, phase: step.phase,
                        detail: passed?.namingTheUsersFiles(step.detail) ?? step.detail,
                        fraction: step.fraction, overall: step.overall)
                    progress(event)
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
        return Outcome(manifest: result.manifest, skipped: result.skipped, notes: request.notes + Self.notes(on: result))
    }

    /// What the user should know of an import's streets and stops.
    private static func notes(on result: RegionImportResult) -> [String] {
        guard !result.skipped else { return [] }
        var notes: [String] = []
        if let beyond = result.manifest.counts[TransitEngine.stopsBeyondStreets], beyond > 0 {
            notes.append("\(beyond) transit stop\(beyond == 1 ? " is" : "s are") farther than \(Int(StreetRouter.snapLimit)) m "
                         + "from every street of the OpenStreetMap extract; search leaves them out")
        }
        if let straight = result.manifest.counts[TransitEngine.straightLineFootpaths], straight > 0 {
            notes.append("\(straight) footpath\(straight == 1 ? "" : "s") between stops could not be timed on the streets "
                         + "and \(straight == 1 ? "is" : "are") timed as a straight line (`status` shows the count)")
        }
        return notes
    }

    /// The files passed open, linked (or, for a pipe, copied) into a private folder; nil when given by path or URL.
    private func passedSources(_ order: RegionImportOrder) async throws -> PassedImportSources? {
        guard let descriptors = order.descriptors else { return nil }
        // Read on a pool thread, which cannot see this task's cancellation: `stop` carries it there.
        let directory = importer.dataDirectory, limits = self.limits, stop = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await CPUWorkPool.blocking.run {  // a pipe is read to its end
                try PassedImportSources(osm: order.osm, gtfs: order.gtfs, descriptors: descriptors, under: directory,
                                        limits: limits, isCancelled: stop.isSet)
            }
        } onCancel: {
            stop.set()
        }
    }

    /// Fetches the sources given by URL (the OSM extract first, then the feeds), reporting
    /// progress like the import does; a client that goes cancels the transfer.
    /// - returns: URL → the fetched copy.
    private func fetchSources(_ order: RegionImportOrder, current: RegionManifest?,
                              progress: @escaping @Sendable (DaemonEvent.ImportProgress) -> Void) async throws
        -> [String: SourceDownloader.Fetched] {
        let wanted = [(order.osm, "osm", limits.osm)] + order.gtfs.map { ($0, "gtfs", limits.feed) }
        // Fetched on a pool thread, which cannot see this task's cancellation: `stop` carries it there.
        let downloader = self.downloader, events = self.events, name = order.name, stop = CancellationFlag()
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
                        progress(event)
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

    /// `region.set`: a region's zone and its realtime feeds; everything is checked before anything changes.
    /// - throws: `DaemonError.invalidParams` when nothing is given, `notFound` for an unknown region.
    func set(region name: String, timeZone: String?, realtime feeds: [RealtimeSource]?, intervalSeconds: Int?) async throws -> RegionManifest {
        guard timeZone != nil || feeds != nil || intervalSeconds != nil else {
            throw DaemonError.invalidParams("nothing to set: give time_zone, realtime or realtime_interval_s")
        }
        let handle = try regions.handle(named: name)
        if feeds != nil || intervalSeconds != nil {
            try await realtime.check(region: handle.name, feeds: feeds, intervalSeconds: intervalSeconds)
        }
        if let zone = timeZone {
            do {
                try regions.catalog.setTimeZone(zone, ofRegion: name)
            } catch StreetsError.regionNotFound(let missing) {
                throw DaemonError.notFound("no region named \(missing)")
            }
            regions.invalidate(name)
            events.publish(.regionChanged(region: name, timeZone: zone, realtimeFeeds: nil))
            // A new zone moves the service day every feed's days are counted from.
            await expiry.check()
        }
        if feeds != nil || intervalSeconds != nil {
            let settings = try await realtime.set(region: handle.name, feeds: feeds, intervalSeconds: intervalSeconds)
            events.publish(.regionChanged(region: name, timeZone: nil, realtimeFeeds: settings?.feeds.count ?? 0))
        }
        return try regions.handle(named: name).manifest
    }
}
