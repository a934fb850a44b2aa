import Foundation
import Streets

/// `region.update` and the daemon's own scheduled update (`RegionUpdateScheduler`): each region's
/// sources checked in turn and what changed rebuilt (`RegionUpdater`), then published and its
/// plans refreshed as an import does. A region that fails keeps serving and says why.
struct RegionUpdateService: Sendable {
    /// Checks regions' sources and rebuilds what changed.
    let updater: RegionUpdater
    /// Lets go of the sources a rebuilt region no longer uses.
    let downloader: SourceDownloader
    let regions: RegionRegistry
    let events: EventHub
    let refresher: BackgroundRefresher
    /// Looks at the new feeds' last days after an update.
    let expiry: FeedExpiryWatcher

    /// One region checked: what was rebuilt, each source as checked, and why it failed, if it did.
    struct Outcome: Sendable {
        var name: String
        var rebuilt: RegionUpdater.Rebuild
        /// The sources checked (a feed not asked for is not).
        var checks: [RegionUpdater.Checked]
        var failure: Error?
    }

    /// `region.update`: the regions named (every region when none), each in turn; `each` is told
    /// of every region's outcome as it is known (the check log records it).
    /// - parameter feed: only this GTFS feed of the one region named.
    /// - throws: `notFound` for a region not imported, `invalidParams` for a feed without exactly one region.
    func update(names: [String], force: Bool, feed given: String?,
                each: @Sendable (Outcome) -> Void) async throws -> [Outcome] {
        let all = try regions.catalog.regions()
        for name in names where !all.contains(where: { $0.name == name }) {
            throw DaemonError.notFound("no region named \(name) (imported: \(all.map(\.name).joined(separator: ", ")))")
        }
        var feed: Int? = nil
        if let given {
            guard names.count == 1, let manifest = all.first(where: { $0.name == names[0] }) else {
                throw DaemonError.invalidParams("feed \"\(given)\" needs exactly one region named (umctl region update NAME --feed FEED)")
            }
            let feeds = GTFSFeedNames(manifest)
            feed = feeds.positions(of: try feeds.canonical(given)).first
        }
        var outcomes: [Outcome] = []
        for manifest in all where names.isEmpty || names.contains(manifest.name) {
            let outcome = await update(manifest, force: force, feed: feed)
            each(outcome)
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// Checks one region (only its GTFS feed at position `feed`, from 0, when given) and rebuilds
    /// what changed; publishes and refreshes as an import does.
    func update(_ manifest: RegionManifest, force: Bool, feed: Int? = nil) async -> Outcome {
        // The update runs on a pool thread, which cannot see this task's cancellation: `stop` carries it there.
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
            if let result = outcome.result {
                downloader.removeUnused(region: name, keeping: result.manifest)
                regions.invalidate(name)
                events.publish(.regionImported(region: name, skipped: false, rebuilt: outcome.rebuilt.rawValue))
                if result.manifest.hasTransit {
                    await refresher.timetableChanged(region: name)
                    await expiry.check()  // a new feed has new last days
                }
            }
            return Outcome(name: name, rebuilt: outcome.rebuilt, checks: outcome.checks.filter(\.checked), failure: outcome.failure)
        } catch {
            return Outcome(name: name, rebuilt: .nothing, checks: [], failure: error)
        }
    }
}
