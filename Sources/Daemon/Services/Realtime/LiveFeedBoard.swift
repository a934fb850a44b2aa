import Foundation
import Planner
import Streets
import Synchronization
import Transit

/// What the realtime pollers last decided per region: the feeds in force (fresh and decoded)
/// and each feed's state for `status` and `region.list`. The transit engine reads the feeds
/// when it opens a region version (a re-import), so a new timetable starts with the live data.
public final class LiveFeedBoard: Sendable {
    private struct Region {
        /// Each with the name of the GTFS feed it is tied to (`RealtimeSource.gtfsFeed`).
        var feeds: [(feed: RealtimeFeed, gtfsFeed: String?)] = []
        var states: [RealtimeFeedState] = []
        /// Each source's last good decoded version, fresh or not (kept when feeds are set again).
        var lastGood: [String: RealtimeFeed] = [:]
    }

    private let regions = Mutex<[String: Region]>([:])
    /// The daemon's clock, for the engine applying feeds on open.
    let clock: any WallClock

    public init(clock: any WallClock) {
        self.clock = clock
    }

    /// The feeds in force, each tied to its GTFS feed's position in `manifest` (the region
    /// version opening: a re-import may have put its feeds in another order).
    func feeds(of manifest: RegionManifest) -> [RealtimeFeed] {
        let feeds = regions.withLock { $0[manifest.name]?.feeds ?? [] }
        guard feeds.contains(where: { $0.gtfsFeed != nil }) else { return feeds.map(\.feed) }
        let names = GTFSFeedNames(manifest)
        return feeds.map { names.tie($0.feed, to: $0.gtfsFeed) }
    }

    /// Each feed's state; nil when the region has no realtime feed.
    func states(of region: String) -> [RealtimeFeedState]? {
        regions.withLock { $0[region].map(\.states) }
    }

    func post(region: String, feeds: [(feed: RealtimeFeed, gtfsFeed: String?)], states: [RealtimeFeedState], lastGood: [String: RealtimeFeed]) {
        regions.withLock { $0[region] = Region(feeds: feeds, states: states, lastGood: lastGood) }
    }

    func lastGood(of region: String) -> [String: RealtimeFeed] { regions.withLock { $0[region]?.lastGood ?? [:] } }

    func remove(region: String) {
        _ = regions.withLock { $0.removeValue(forKey: region) }
    }
}
