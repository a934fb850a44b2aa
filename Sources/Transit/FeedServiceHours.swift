import Foundation

/// When one service of a feed runs on its days: the first departure and the last arrival of its
/// trips, in seconds after its service day's reference instant (GTFS times, "25:10:00" past
/// midnight included). The import report keeps these per feed, so the region's description can
/// say for any day when transit starts and ends without loading the timetable.
public struct ServiceSpan: Hashable, Sendable, Codable {
    /// The days the service runs, a bitset from `firstDay` (days since 1970-01-01).
    public var firstDay: Int
    public var days: [UInt64]
    public var firstDeparture: Int
    public var lastArrival: Int

    func runs(on day: Int) -> Bool {
        Timetable.Service(id: "", firstDay: firstDay, words: days).runs(on: day)
    }
}

/// A feed's first departure and last arrival of one service day.
public struct FeedServiceHours: Hashable, Sendable {
    /// The service day, "2022-01-12", local to the feed's zone.
    public var day: String
    public var firstDeparture: Date
    public var lastArrival: Date
}

extension GTFSImportReport {
    /// The zone the feeds' service days and hours are read in: the agencies' (`timeZone`), else UTC.
    public var zone: TimeZone { ServiceDate.zone(named: timeZone) }

    /// The first departure and the last arrival of the trips `feed` runs on the service day of
    /// `date` (its local date in the report's zone); nil when nothing runs then, or the feed was
    /// imported before the hours were recorded.
    public func serviceHours(ofFeed feed: String, onDayOf date: Date) -> FeedServiceHours? {
        let zone = self.zone
        let day = ServiceDate.localDay(of: date, in: zone)
        let running = (serviceSpans[feed] ?? []).filter { $0.runs(on: day) }
        guard let first = running.map(\.firstDeparture).min(), let last = running.map(\.lastArrival).max() else { return nil }
        let reference = ServiceDate.referenceInstant(day, in: zone)
        return FeedServiceHours(day: ServiceDate.iso(day), firstDeparture: Date(timeIntervalSince1970: TimeInterval(reference + first)),
                                lastArrival: Date(timeIntervalSince1970: TimeInterval(reference + last)))
    }

    /// The service day of `date` in the report's zone, "2022-01-12".
    public func serviceDay(of date: Date) -> String {
        ServiceDate.iso(ServiceDate.localDay(of: date, in: zone))
    }
}
