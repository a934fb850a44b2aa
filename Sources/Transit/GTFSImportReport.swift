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
    /// Languages the feeds state (`feed_info.txt` `feed_lang`, `agency.txt` `agency_lang`), as
    /// written ("fi", "pt-BR"), each once, in the order read; the region's category words follow them.
    public var languages: [String] = []
    /// What was kept for routing.
    public var stops = 0
    public var routes = 0
    /// Scheduled trips after expanding frequencies.
    public var trips = 0
    public var stopTimes = 0
    public var patterns = 0
    public var footpaths = 0
    /// Footpaths timed along the streets (the estimator `followsStreets`) …
    public var streetTimedFootpaths = 0
    /// … and those timed as a stretched straight line: every one with the default estimator,
    /// else the pairs the street estimator could not answer (no road nearby, no route).
    public var straightLineFootpaths = 0
    /// Trips generated from frequencies.txt.
    public var frequencyTrips = 0
    /// Feeds whose part kept from the region's version before was merged instead of parsing
    /// the feed again (`FeedPart`; a `region update` of another feed).
    public var feedsKept = 0
    /// Wall-clock seconds the import took.
    public var seconds: Double = 0
    /// Per feed file name: when each of its services runs (`serviceHours(ofFeed:onDayOf:)`).
    public var serviceSpans: [String: [ServiceSpan]] = [:]

    public init() {}

    /// Reads reports saved before a field existed (the footpath counts came later): a missing
    /// field keeps its default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rowsRead = try c.decodeIfPresent([String: Int].self, forKey: .rowsRead) ?? [:]
        skipped = try c.decodeIfPresent([String: Int].self, forKey: .skipped) ?? [:]
        servicePeriods = try c.decodeIfPresent([FeedServicePeriod].self, forKey: .servicePeriods) ?? []
        timeZone = try c.decodeIfPresent(String.self, forKey: .timeZone) ?? ""
        languages = try c.decodeIfPresent([String].self, forKey: .languages) ?? []
        for (key, path) in [(CodingKeys.stops, \Self.stops), (.routes, \.routes), (.trips, \.trips),
                            (.stopTimes, \.stopTimes), (.patterns, \.patterns), (.footpaths, \.footpaths),
                            (.streetTimedFootpaths, \.streetTimedFootpaths),
                            (.straightLineFootpaths, \.straightLineFootpaths), (.frequencyTrips, \.frequencyTrips),
                            (.feedsKept, \.feedsKept)] {
            self[keyPath: path] = try c.decodeIfPresent(Int.self, forKey: key) ?? 0
        }
        seconds = try c.decodeIfPresent(Double.self, forKey: .seconds) ?? 0
        serviceSpans = try c.decodeIfPresent([String: [ServiceSpan]].self, forKey: .serviceSpans) ?? [:]
    }

    /// Records a language a feed states, once; `mul` (many languages) is no one language.
    mutating func noteLanguage(_ language: String) {
        guard !language.isEmpty, language.lowercased() != "mul", !languages.contains(language) else { return }
        languages.append(language)
    }

    /// Adds what reading one more feed reported (a `FeedPart`'s report), as if read into this one.
    mutating func add(feed other: GTFSImportReport) {
        rowsRead.merge(other.rowsRead, uniquingKeysWith: +)
        skipped.merge(other.skipped, uniquingKeysWith: +)
        servicePeriods += other.servicePeriods
        for language in other.languages { noteLanguage(language) }
        frequencyTrips += other.frequencyTrips
        serviceSpans.merge(other.serviceSpans, uniquingKeysWith: +)
    }

    mutating func skip(_ reason: String, _ count: Int = 1) {
        skipped[reason, default: 0] += count
    }

    /// Total number of skipped rows and trips.
    public var totalSkipped: Int { skipped.values.reduce(0, +) }

    /// A few lines for logs and the region description.
    public var summary: String {
        var lines = ["time zone \(timeZone); \(stops) stops, \(routes) routes, \(trips) trips (\(frequencyTrips) from frequencies), \(stopTimes) stop times, \(patterns) patterns, \(footpaths) footpaths (\(streetTimedFootpaths) timed on the streets, \(straightLineFootpaths) straight-line)"]
        for period in servicePeriods { lines.append("service \(period.summary)") }
        for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) { lines.append("skipped \(count): \(reason)") }
        return lines.joined(separator: "\n")
    }
}
