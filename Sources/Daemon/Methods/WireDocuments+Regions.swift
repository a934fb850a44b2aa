import Foundation
import Planner
import Streets
import WireProtocol

// The regions' wire descriptions (`region.list`, `region.import`, `region.set`, `status`),
// built here from the registry's domain values: the registry itself knows no wire.

extension RegionHandle {
    /// The region as `region.list` and `status` describe it, its feeds' service hours on the
    /// service day of `day` and their days left from `now` (default: `day`).
    public func document(on day: Date, now: Date? = nil) -> RegionDocument {
        WireDocuments.region(manifest, report: importReport(), day: day, now: now ?? day)
    }

    /// The zones `document(on:now:)` reads days in (`WireDocuments.regionDayZones`).
    func dayZones() -> [TimeZone] {
        WireDocuments.regionDayZones(manifest, report: importReport())
    }
}

extension RegionRegistry {
    /// The region's wire description, with its feeds' service hours on the service day of `day`.
    public func document(of region: RegionManifest, on day: Date) throws -> RegionDocument {
        describe(try handle(named: region.name), on: day)
    }

    /// A region's wire description with its realtime feeds' states.
    func describe(_ handle: RegionHandle, on day: Date, now: Date? = nil) -> RegionDocument {
        var document = handle.document(on: day, now: now)
        document.realtimeFeeds = realtimeDocuments(of: handle.name)
        return document
    }

    /// The states of region `name`'s realtime feeds; nil when it has none. A feed tied to a GTFS
    /// feed the region no longer has is shown `feed_missing`.
    func realtimeDocuments(of name: String) -> [RealtimeFeedDocument]? {
        guard let documents = live?.documents(of: name) else { return nil }
        guard documents.contains(where: { $0.gtfsFeed != nil }), let handle = try? handle(named: name) else { return documents }
        return GTFSFeedNames(handle.manifest).markingLostTies(documents)
    }

    /// Every region's wire description for `status` and `region.list`: service hours on the day
    /// `date` names ("YYYY-MM-DD", in each region's zone), else on the day of `now`.
    /// - throws: `DaemonError.invalidParams` for a date that is not a calendar date.
    public func documents(onDate date: String?, now: Date) throws -> [RegionDocument] {
        try handles().map { handle in
            guard let date else { return describe(handle, on: now, now: now) }
            guard date.count == 10, let noon = WireTime.parse("\(date)T12:00", timeZone: handle.timeZone, now: now) else {
                throw DaemonError.invalidParams("date \"\(date)\" must be a calendar date, YYYY-MM-DD")
            }
            return describe(handle, on: noon, now: now)
        }
    }
}

extension GTFSFeedNames {
    /// `documents` with each feed tied to a name the region no longer has (a re-import without
    /// that feed) shown as `feed_missing`, its error naming the lost feed and the ones there are:
    /// it applies nothing (`tie`), and the user must be told rather than see it `live`.
    func markingLostTies(_ documents: [RealtimeFeedDocument]) -> [RealtimeFeedDocument] {
        documents.map { document in
            guard let name = document.gtfsFeed, positions(of: name).count != 1, document.state == "live" else { return document }
            var marked = document
            marked.state = "feed_missing"
            marked.tripUpdatesApplied = 0
            marked.tripsCancelled = 0
            marked.alertsApplied = 0
            marked.refused = [:]
            let listed = names.isEmpty ? "none" : names.joined(separator: ", ")
            marked.error = "region \(region) no longer has the GTFS feed \(name), so nothing of this feed applies "
                + "(its feeds: \(listed)); tie it again: umctl region set \(region) --realtime FEED=URL"
            return marked
        }
    }
}

extension WireDocuments {
    /// One region's `region.update` outcome (also what the check log keeps and the scheduler logs).
    static func regionUpdate(_ outcome: RegionUpdateService.Outcome) -> RegionUpdateResult {
        RegionUpdateResult(name: outcome.name, rebuilt: outcome.rebuilt.rawValue, sources: outcome.checks.map { check in
            SourceCheckDocument(role: check.role, source: check.shown, changed: check.changed,
                                error: check.error.map { RequestDispatcher.wireError(from: $0) })
        }, error: outcome.failure.map { RequestDispatcher.wireError(from: $0) })
    }
}
