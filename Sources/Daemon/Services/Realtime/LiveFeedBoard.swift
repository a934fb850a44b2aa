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
        /// The polling loop that may write here (`claim`).
        var claim: Claim
    }

    /// What a region's polling loop holds to write the region's entry: the region's settings
    /// claim it again each time they start a loop, so a loop they replaced or ended (whose task
    /// the poller's run cancels a moment later) writes nothing in its last moment.
    struct Claim: Hashable, Sendable {
        fileprivate let number: UInt64
    }

    private let regions = Mutex<(byName: [String: Region], claims: UInt64)>(([:], 0))
    /// One gate per region that every change of its overlay goes through (`changingOverlay`).
    private let overlayGates = Mutex<[String: OverlayGate]>([:])
    /// The daemon's clock, for the engine applying feeds on open.
    let clock: any WallClock

    public init(clock: any WallClock) {
        self.clock = clock
    }

    /// The feeds in force, each tied to its GTFS feed's position in `manifest` (the region
    /// version opening: a re-import may have put its feeds in another order).
    func feeds(of manifest: RegionManifest) -> [RealtimeFeed] {
        let feeds = regions.withLock { $0.byName[manifest.name]?.feeds ?? [] }
        guard feeds.contains(where: { $0.gtfsFeed != nil }) else { return feeds.map(\.feed) }
        let names = GTFSFeedNames(manifest)
        return feeds.map { names.tie($0.feed, to: $0.gtfsFeed) }
    }

    /// Each feed's state; nil when the region has no realtime feed.
    func states(of region: String) -> [RealtimeFeedState]? {
        regions.withLock { $0.byName[region].map(\.states) }
    }

    /// Posts the region's feeds as a new loop starts (none in force, each feed's first state) and
    /// gives that loop the claim to write them from now on: the claim any loop held before is void.
    func claim(region: String, states: [RealtimeFeedState], lastGood: [String: RealtimeFeed]) -> Claim {
        regions.withLock { regions in
            regions.claims += 1
            let claim = Claim(number: regions.claims)
            regions.byName[region] = Region(feeds: [], states: states, lastGood: lastGood, claim: claim)
            return claim
        }
    }

    /// Whether `claim` is still the region's: its settings neither replaced nor ended its loop.
    func holds(_ claim: Claim, region: String) -> Bool {
        regions.withLock { $0.byName[region]?.claim == claim }
    }

    /// Posts what the loop holding `claim` decided; nothing when the claim is void (its loop was
    /// replaced or ended: the region's entry is its successor's, or gone). True when posted.
    @discardableResult
    func post(region: String, claim: Claim, feeds: [(feed: RealtimeFeed, gtfsFeed: String?)], states: [RealtimeFeedState],
              lastGood: [String: RealtimeFeed]) -> Bool {
        regions.withLock { regions in
            guard regions.byName[region]?.claim == claim else { return false }
            regions.byName[region] = Region(feeds: feeds, states: states, lastGood: lastGood, claim: claim)
            return true
        }
    }

    func lastGood(of region: String) -> [String: RealtimeFeed] { regions.withLock { $0.byName[region]?.lastGood ?? [:] } }

    /// Forgets the region's feeds, and with them the claim of its loop.
    func remove(region: String) {
        _ = regions.withLock { $0.byName.removeValue(forKey: region) }
    }

    /// Runs `change` (laying feeds over the region's timetable, or clearing them) when `claim` is
    /// still the region's (nil: always, for a clear after its loop was ended); nil when void.
    /// The claim is checked and the change made under the region's gate, which every change of
    /// its overlay passes: a loop replaced or ended while it applied finishes first, and a clear
    /// that follows the loop's end comes after it. Checked outside the gate, a loop's last
    /// apply could land after the clear of `region.set` and leave removed feeds in force.
    /// Only changes of the same region wait on each other (`status` reads `regions`, not a gate).
    func changingOverlay<T: Sendable>(region: String, claim: Claim?, _ change: () -> T) -> T? {
        let gate = overlayGates.withLock { gates in
            if let gate = gates[region] { return gate }
            let gate = OverlayGate()
            gates[region] = gate
            return gate
        }
        return gate.lock.withLock { _ -> T? in
            if let claim, !holds(claim, region: region) { return nil }
            return change()
        }
    }
}

/// The lock of one region's overlay changes (`LiveFeedBoard.changingOverlay`).
private final class OverlayGate: Sendable {
    let lock = Mutex(())
}
