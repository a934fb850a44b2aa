import Foundation
import Planner

/// A boarding stop as the place index and the client see it.
public struct TransitStop: Hashable, Sendable, Codable {
    /// The feed's `stop_id`.
    public var id: String
    public var name: String
    public var coordinate: Coordinate
    /// Vehicles that call here ("tram", "bus"), sorted; empty when no trip uses the stop.
    public var modes: [String]
    /// The `stop_id` of the station this stop belongs to, when the feed says.
    public var parentStationID: String?

    public init(id: String, name: String, coordinate: Coordinate, modes: [String], parentStationID: String? = nil) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.modes = modes
        self.parentStationID = parentStationID
    }
}

extension TransitStop {
    /// A timetable's stop as the place index and callers see it.
    init(_ stop: Timetable.Stop) {
        self.init(id: stop.id, name: stop.name, coordinate: stop.coordinate,
                  modes: VehicleKind.names(mask: stop.modeMask), parentStationID: stop.parentStationID)
    }
}

/// The days a feed covers (`FeedCoverage`), shown in the region's description so users see why
/// transit vanished when a feed goes stale.
public struct FeedServicePeriod: Hashable, Sendable, Codable {
    /// The feed's file name ("tampere.zip").
    public var feed: String
    /// First and last service dates, ISO "YYYY-MM-DD", local to the feed's time zone.
    public var firstDate: String
    public var lastDate: String
    /// The same as day numbers (days since 1970-01-01) for comparisons.
    public var firstDay: Int
    public var lastDay: Int
    /// `feed_info.txt`'s `feed_end_date`, "YYYY-MM-DD", when the feed declares one (it may be
    /// later than `lastDate`: nothing runs after that); nil in reports written before it was read.
    public var feedEndDate: String?

    public init(feed: String, firstDay: Int, lastDay: Int, feedEndDay: Int? = nil) {
        self.feed = feed
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.firstDate = ServiceDate.iso(firstDay)
        self.lastDate = ServiceDate.iso(lastDay)
        self.feedEndDate = feedEndDay.map(ServiceDate.iso)
    }

    /// "tampere.zip: 2021-09-20 – 2022-03-31".
    public var summary: String { "\(feed): \(firstDate) – \(lastDate)" }
}

/// How far an import got, for a progress line.
public struct TransitImportProgress: Hashable, Sendable {
    public var feed: String
    /// The GTFS file being read ("stop_times.txt"), or a phase ("footpaths", "writing").
    public var step: String
    /// Rows read so far in this step.
    public var rows: Int

    public init(feed: String, step: String, rows: Int) {
        self.feed = feed
        self.step = step
        self.rows = rows
    }
}
