/// One GTFS-Realtime feed of a region as `status` and `region.list` show it: what was fetched,
/// what changed, what was applied and what was refused, and why.
public struct RealtimeFeedDocument: Hashable, Sendable, Codable {
    /// The URL with any credentials hidden, or the file path.
    public var source: String
    /// The region's GTFS feed it is tied to (`region set --realtime FEED=URL`): its updates and
    /// alerts apply to that feed's trips, routes and stops alone. Null when it is tied to none.
    @NullWhenNil public var gtfsFeed: String?
    public var intervalS: Int
    /// `waiting` (not fetched yet), `live` (applied), `stale` (its header is more than 5 minutes
    /// behind the daemon's clock: ignored), `future` (its header is more than a minute ahead of
    /// the daemon's clock: ignored), `failing` (the last fetch or decode failed; the last
    /// good version stays applied until it goes stale), `feed_missing` (tied to a GTFS feed the region
    /// no longer has, after a re-import without it: nothing of it applies; `error` says so).
    public var state: String
    @NullWhenNil public var lastFetch: String?
    /// When the feed's content last changed.
    @NullWhenNil public var lastChange: String?
    /// The feed header's timestamp.
    @NullWhenNil public var feedTime: String?
    public var tripUpdatesApplied: Int
    public var tripsCancelled: Int
    public var alertsApplied: Int
    /// Entities that could not be applied, counted by reason (`unknown_trip`, `unknown_stop`,
    /// `no_times`, `times_backwards`, …).
    public var refused: [String: Int]
    /// The last failure (`fetch_http_status: …`, `realtime_feed_invalid: …`); null after a success.
    @NullWhenNil public var error: String?
    public var consecutiveFailures: Int

    public init(source: String, gtfsFeed: String? = nil, intervalS: Int, state: String, lastFetch: String? = nil, lastChange: String? = nil,
                feedTime: String? = nil, tripUpdatesApplied: Int = 0, tripsCancelled: Int = 0, alertsApplied: Int = 0,
                refused: [String: Int] = [:], error: String? = nil, consecutiveFailures: Int = 0) {
        self.source = source
        self.gtfsFeed = gtfsFeed
        self.intervalS = intervalS
        self.state = state
        self.lastFetch = lastFetch
        self.lastChange = lastChange
        self.feedTime = feedTime
        self.tripUpdatesApplied = tripUpdatesApplied
        self.tripsCancelled = tripsCancelled
        self.alertsApplied = alertsApplied
        self.refused = refused
        self.error = error
        self.consecutiveFailures = consecutiveFailures
    }
}

extension RealtimeFeedDocument {
    /// Read by `JSONFields`, the one decoder of `status`'s documents.
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(source: try fields.string("source"), gtfsFeed: try fields.optionalString("gtfs_feed"), intervalS: try fields.int("interval_s"), state: try fields.string("state"),
                  lastFetch: try fields.optionalString("last_fetch"), lastChange: try fields.optionalString("last_change"),
                  feedTime: try fields.optionalString("feed_time"), tripUpdatesApplied: try fields.int("trip_updates_applied"),
                  tripsCancelled: try fields.int("trips_cancelled"), alertsApplied: try fields.int("alerts_applied"),
                  refused: try fields.counts("refused"), error: try fields.optionalString("error"),
                  consecutiveFailures: try fields.int("consecutive_failures"))
    }
}
