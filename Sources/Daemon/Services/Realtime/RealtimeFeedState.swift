import Foundation

/// One realtime feed of a region as its poller last left it: what was fetched, what changed,
/// what was applied and what was refused, and why. `status` and `region.list` show it
/// (`WireDocuments+Realtime` writes it as a `RealtimeFeedDocument`).
struct RealtimeFeedState: Equatable, Sendable {
    enum Condition: String, Sendable {
        /// Not fetched yet.
        case waiting
        /// Applied.
        case live
        /// Its header is more than `RealtimePoller.staleAfter` behind the daemon's clock: ignored.
        case stale
        /// Its header is more than `RealtimePoller.futureAfter` ahead of the daemon's clock: ignored.
        case future
        /// The last fetch or decode failed; the last good version stays applied until it goes stale.
        case failing
        /// Tied to a GTFS feed the region no longer has (a re-import without it): nothing of it applies.
        case feedMissing = "feed_missing"
    }

    /// The URL with any credentials hidden, or the file path.
    var source: String
    /// The region's GTFS feed it is tied to; nil when it is tied to none.
    var gtfsFeed: String?
    var intervalSeconds: Int
    var condition: Condition
    var lastFetch: Date?
    /// When the feed's content last changed.
    var lastChange: Date?
    /// The feed header's timestamp.
    var feedTime: Date?
    /// The region's zone, the times' shown offset.
    var timeZone: TimeZone
    var tripUpdatesApplied = 0
    var tripsCancelled = 0
    var alertsApplied = 0
    /// Entities that could not be applied, counted by reason.
    var refused: [String: Int] = [:]
    /// The last failure; nil after a success.
    var error: String?
    var consecutiveFailures = 0
}
