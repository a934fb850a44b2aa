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
        realtimeStates(of: name)?.map(WireDocuments.realtimeFeed)
    }

    /// `realtimeDocuments` before they are written: what `status` compares to know whether its
    /// regions part changed (`RegionsStatusPart`).
    func realtimeStates(of name: String) -> [RealtimeFeedState]? {
        guard let states = live?.states(of: name) else { return nil }
        guard states.contains(where: { $0.gtfsFeed != nil }), let handle = try? handle(named: name) else { return states }
        return GTFSFeedNames(handle.manifest).markingLostTies(states)
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

extension WireDocuments {
    /// One region's `region.update` outcome (also what the check log keeps and the scheduler logs).
    static func regionUpdate(_ outcome: RegionUpdateService.Outcome) -> RegionUpdateResult {
        RegionUpdateResult(name: outcome.name, rebuilt: outcome.rebuilt.rawValue, sources: outcome.checks.map { check in
            SourceCheckDocument(role: check.role, source: check.shown, changed: check.changed,
                                error: check.error.map { RequestDispatcher.wireError(from: $0) })
        }, error: outcome.failure.map { RequestDispatcher.wireError(from: $0) })
    }
}
