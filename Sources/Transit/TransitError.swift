import Foundation

/// Why a GTFS import or a timetable load failed. `code` is stable and goes on the wire;
/// the message names the file, column or value that was wrong.
public enum TransitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The feed path does not exist.
    case feedNotFound(String)
    /// The file is not a readable zip archive.
    case notAZip(path: String, reason: String)
    /// A file GTFS requires is absent from the feed.
    case missingRequiredFile(feed: String, file: String)
    /// A required column is absent from a file's header.
    case missingRequiredColumn(feed: String, file: String, column: String)
    /// A member could not be decompressed or read.
    case unreadableFile(file: String, reason: String)
    /// A file went past one of `GTFSLimits` (size, compression ratio, line length, memory).
    case limitExceeded(feed: String, file: String, limit: GTFSLimit)
    /// `agency_timezone` is not a known IANA zone.
    case unknownTimeZone(feed: String, zone: String)
    /// Feeds (or agencies of one feed) disagree on the time zone; service days need one.
    case mixedTimeZones([String])
    /// After skipping bad rows, nothing routable was left.
    case noUsableTrips(feed: String)
    /// No feed was given.
    case noFeeds
    /// The region has no imported timetable yet.
    case timetableMissing(String)
    /// The stored timetable was written by another schema version; re-import the feeds.
    case timetableSchemaMismatch(found: Int, expected: Int)
    /// The stored timetable is damaged.
    case corruptTimetable(String)
    /// Writing or reading the region's transit database failed.
    case storage(String)
    /// A GTFS-Realtime body was refused whole (nothing of it is applied).
    case realtimeFeedInvalid(RealtimeFeedRefusal)

    public var code: String {
        switch self {
        case .feedNotFound: "feed_not_found"
        case .notAZip: "not_a_zip"
        case .missingRequiredFile: "missing_required_file"
        case .missingRequiredColumn: "missing_required_column"
        case .unreadableFile: "unreadable_file"
        case .limitExceeded: "gtfs_limit_exceeded"
        case .unknownTimeZone: "unknown_time_zone"
        case .mixedTimeZones: "mixed_time_zones"
        case .noUsableTrips: "no_usable_trips"
        case .noFeeds: "no_feeds"
        case .timetableMissing: "timetable_missing"
        case .timetableSchemaMismatch: "timetable_schema_mismatch"
        case .corruptTimetable: "corrupt_timetable"
        case .storage: "transit_storage"
        case .realtimeFeedInvalid: "realtime_feed_invalid"
        }
    }

    public var message: String {
        switch self {
        case .feedNotFound(let path): "GTFS feed not found: \(path)"
        case .notAZip(let path, let reason): "\(path) is not a zip archive (\(reason))"
        case .missingRequiredFile(let feed, let file): "\(feed) has no \(file), which GTFS requires"
        case .missingRequiredColumn(let feed, let file, let column): "\(feed): \(file) has no column \(column)"
        case .unreadableFile(let file, let reason): "cannot read \(file): \(reason)"
        case let .limitExceeded(feed, file, limit): "\(feed): \(file) \(limit); refused"
        case .unknownTimeZone(let feed, let zone): "\(feed): unknown agency_timezone \"\(zone)\""
        case .mixedTimeZones(let zones): "feeds use different time zones (all feeds of a region must agree): \(zones.joined(separator: ", "))"
        case .noUsableTrips(let feed): "\(feed) has no usable trips after skipping bad rows"
        case .noFeeds: "no GTFS feed given"
        case .timetableMissing(let path): "no transit timetable imported at \(path)"
        case .timetableSchemaMismatch(let found, let expected):
            "transit timetable has schema version \(found), this program needs \(expected); re-import the feeds"
        case .corruptTimetable(let detail): "transit timetable is damaged: \(detail)"
        case .storage(let detail): "transit database: \(detail)"
        case .realtimeFeedInvalid(let refusal): "GTFS-Realtime feed refused: \(refusal)"
        }
    }

    public var description: String { "\(code): \(message)" }
}
