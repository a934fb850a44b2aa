import Fetching
import Foundation
import Streets

/// A region's GTFS-Realtime feeds and how often they are polled (`region set --realtime`).
struct RealtimeSettings: Codable, Hashable, Sendable {
    /// `http(s)://` URLs or absolute file paths, polled in this order.
    var feeds: [String]
    var intervalSeconds: Int

    static let defaultIntervalSeconds = 30
    /// Polling faster than this burdens the producer and gains nothing: feeds refresh every 15–30 s.
    static let minimumIntervalSeconds = 10
    static let maximumIntervalSeconds = 86_400
    static let maximumFeeds = 8

    /// The settings after a `region.set`, or `DaemonError.invalidParams` naming what is wrong.
    static func validated(feeds: [String], intervalSeconds: Int?) throws -> RealtimeSettings {
        guard feeds.count <= maximumFeeds else {
            throw DaemonError.invalidParams("at most \(maximumFeeds) realtime feeds per region, got \(feeds.count)")
        }
        for feed in feeds {
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
