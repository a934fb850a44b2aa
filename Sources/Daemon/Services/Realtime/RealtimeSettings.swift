import Fetching
import Foundation
import Streets

/// One realtime feed of a region: where it is fetched from, and the region's GTFS feed it
/// belongs to, if the user said (`region set --realtime FEED=URL`).
struct RealtimeSource: Codable, Hashable, Sendable {
    /// An `http(s)://` URL or an absolute file path.
    var url: String
    /// The GTFS feed's name as `transit_feeds` shows it ("south.zip"), or its position from 1
    /// ("2") when two feeds share a name; nil: not tied (any feed's trips).
    var gtfsFeed: String?

    init(url: String, gtfsFeed: String? = nil) {
        self.url = url
        self.gtfsFeed = gtfsFeed
    }

    private enum CodingKeys: String, CodingKey {
        case url
        case gtfsFeed = "gtfs_feed"
    }

    /// A bare string (every file written before ties, and an untied feed now, so that an older
    /// daemon still reads it) or `{"url": …, "gtfs_feed": …}`.
    init(from decoder: any Decoder) throws {
        if let url = try? decoder.singleValueContainer().decode(String.self) {
            self.init(url: url)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(url: try c.decode(String.self, forKey: .url), gtfsFeed: try c.decodeIfPresent(String.self, forKey: .gtfsFeed))
    }

    func encode(to encoder: any Encoder) throws {
        guard let gtfsFeed else {
            var single = encoder.singleValueContainer()
            try single.encode(url)
            return
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(gtfsFeed, forKey: .gtfsFeed)
    }
}

/// A region's GTFS-Realtime feeds and how often they are polled (`region set --realtime`).
struct RealtimeSettings: Codable, Hashable, Sendable {
    /// Polled in this order.
    var feeds: [RealtimeSource]
    var intervalSeconds: Int

    static let defaultIntervalSeconds = 30
    /// Polling faster than this burdens the producer and gains nothing: feeds refresh every 15–30 s.
    static let minimumIntervalSeconds = 10
    static let maximumIntervalSeconds = 86_400
    static let maximumFeeds = 8

    /// The settings after a `region.set`, or `DaemonError.invalidParams` naming what is wrong.
    static func validated(feeds: [RealtimeSource], intervalSeconds: Int?) throws -> RealtimeSettings {
        guard feeds.count <= maximumFeeds else {
            throw DaemonError.invalidParams("at most \(maximumFeeds) realtime feeds per region, got \(feeds.count)")
        }
        for feed in feeds.map(\.url) {
            let lower = feed.lowercased()
            if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                guard let url = URL(string: feed), let host = url.host, !host.isEmpty else {
                    throw DaemonError.invalidParams("realtime feed \"\(SourceURL.redacted(feed))\" is not a valid URL")
                }
            } else if let scheme = SourceURL.scheme(of: feed) {
                throw DaemonError.invalidParams(
                    "realtime feed \"\(SourceURL.redacted(feed))\": \(scheme):// is not supported; give an http:// or https:// URL or a file path")
            } else if !feed.hasPrefix("/") {
                throw DaemonError.invalidParams("realtime feed \"\(feed)\" must be an absolute file path or an http(s):// URL")
            }
        }
        let interval = intervalSeconds ?? defaultIntervalSeconds
        guard (minimumIntervalSeconds...maximumIntervalSeconds).contains(interval) else {
            throw DaemonError.invalidParams(
                "realtime_interval_s (umctl region set --realtime-interval) must be \(minimumIntervalSeconds) to "
                    + "\(maximumIntervalSeconds) seconds (10s to 24h), got \(interval)")
        }
        return RealtimeSettings(feeds: feeds, intervalSeconds: interval)
    }
}

/// Every region's realtime settings in one file of the data directory, readable by the owner
/// only (URLs may carry keys), replaced atomically. Kept outside the region directories so a
/// re-import keeps them.
struct RealtimeSettingsFile: Sendable {
    static let fileName = "realtime-feeds.json"
    let url: URL

    init(dataDirectory: URL) {
        url = dataDirectory.appendingPathComponent(Self.fileName)
    }

    func load() throws -> [String: RealtimeSettings] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        do {
            return try JSONDecoder().decode([String: RealtimeSettings].self, from: Data(contentsOf: url))
        } catch {
            throw SettingsFileError("\(url.path) cannot be read: \(error)")
        }
    }

    func save(_ settings: [String: RealtimeSettings]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try OwnerOnlyFile.replace(url, with: try encoder.encode(settings))
        } catch let failure as OwnerOnlyFile.Failure {
            throw SettingsFileError(failure.message)
        }
    }
}

/// The settings file could not be read or written (the disk, not the request, is at fault).
struct SettingsFileError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
