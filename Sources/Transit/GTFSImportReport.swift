import Foundation

/// What an import read, kept and skipped. Bad rows are never silently dropped: every
/// skip is counted under a reason such as `stop_times.txt: unknown trip_id`.
public struct GTFSImportReport: Hashable, Sendable, Codable {
    /// Per GTFS file: rows read (header excluded), summed over feeds.
    public var rowsRead: [String: Int] = [:]
    /// Per reason ("trips.txt: unknown service_id"): rows or trips skipped.
    public var skipped: [String: Int] = [:]
    /// Each feed's service period.
    public var servicePeriods: [FeedServicePeriod] = []
    /// IANA time zone of the agencies ("Europe/Helsinki").
    public var timeZone: String = ""
    /// What was kept for routing.
    public var stops = 0
    public var routes = 0
    /// Scheduled trips after expanding frequencies.
    public var trips = 0
    public var stopTimes = 0
    public var patterns = 0
    public var footpaths = 0
    /// Trips generated from frequencies.txt.
    public var frequencyTrips = 0
    /// Wall-clock seconds the import took.
    public var seconds: Double = 0

    public init() {}

    mutating func skip(_ reason: String, _ count: Int = 1) {
        skipped[reason, default: 0] += count
    }

    /// Total number of skipped rows and trips.
    public var totalSkipped: Int { skipped.values.reduce(0, +) }

    /// A few lines for logs and the region description.
    public var summary: String {
        var lines = ["time zone \(timeZone); \(stops) stops, \(routes) routes, \(trips) trips (\(frequencyTrips) from frequencies), \(stopTimes) stop times, \(patterns) patterns, \(footpaths) footpaths"]
        for period in servicePeriods { lines.append("service \(period.summary)") }
        for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) { lines.append("skipped \(count): \(reason)") }
        return lines.joined(separator: "\n")
    }
}
