import Foundation

/// A region's GTFS fares (v1, and v2 in `v2`), resolved to timetable indexes at import: each stop's zone,
/// each route's feed, and the usable fares with their rules. Stored beside the timetable.
struct FareTable: Sendable, Hashable, Codable {
    /// What a feed says about fares.
    enum FeedFares: String, Sendable, Hashable, Codable {
        /// `fare_attributes.txt` was read (some of its fares may have been unusable).
        case v1
        /// No fare files at all.
        case none
        /// Some GTFS Fares v2 files, but not both `fare_products.txt` and `fare_leg_rules.txt`:
        /// nothing to price with.
        case v2Only
        /// GTFS Fares v2 were read (`FareTable.v2`), and are preferred to any v1 files.
        case v2
    }

    /// One `fare_attributes.txt` row with every `fare_rules.txt` row naming it.
    struct Fare: Sendable, Hashable, Codable {
        var id: String
        /// Index of the feed it belongs to (fare, route and zone IDs are only unique in a feed).
        var feed: Int32
        var price: Decimal
        var currency: String
        /// Changes allowed on one ticket; nil when unlimited (empty `transfers`).
        var transfers: Int?
        /// Seconds from the first boarding within which every later boarding must happen; nil: no limit.
        var transferDuration: Int?
        /// The fare's `agency_id`; nil when it gives none.
        var agencyID: String?
        /// Routes (timetable indexes) the fare is limited to; empty: every route.
        var routes: Set<Int32> = []
        /// (origin zone, destination zone) pairs, -1 for "any"; empty: no limit.
        var originDestinations: Set<ZonePair> = []
        /// Zones the fare covers (`contains_id`); empty: no limit.
        var contains: Set<Int32> = []
    }

    struct ZonePair: Sendable, Hashable, Codable {
        var origin: Int32
        var destination: Int32
    }

    /// Zone names (`zone_id`), index = zone number; one name per feed and zone.
    var zoneNames: [String] = []
    /// Per stop: its zone number, -1 when the stop has no `zone_id`.
    var stopZones: [Int32] = []
    /// Per route: the index of the feed it came from.
    var routeFeeds: [Int32] = []
    /// Per feed, in import order.
    var feeds: [FeedFares] = []
    var fares: [Fare] = []
    /// Fares dropped for bad input (also counted by reason in the import report).
    var unusableFares = 0
    /// Each `.v2` feed's Fares v2; nil in a table stored before they were read.
    var v2: [FaresV2]? = nil

    /// A timetable stored before fares were read: every price is unknown.
    var isRead: Bool { !feeds.isEmpty }
}
