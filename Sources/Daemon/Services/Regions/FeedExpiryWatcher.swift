import Foundation
import Planner
import Transit

/// Warns before a region's GTFS feed runs out: from `warningDays` days before a feed's last
/// covered day until that day, it logs a warning and publishes a `feed_expiring` event to
/// `watch`, once per service day (the region's zone, the daemon's clock), so the last day gets
/// its own warning too. It looks at start-up, after each import and every `interval` after.
///
/// The day each feed was last warned about is kept in `stateFile`, so a restart the same day
/// warns no one twice; a feed with a new last day (a new version) is warned about afresh.
public actor FeedExpiryWatcher: DaemonService {
    /// The file in the data directory with one line per feed warned about:
    /// region, feed, its last day and the day of the warning, tab-separated.
    public static let stateFileName = "expiry-warnings"

    /// A warning due: a feed `daysLeft` days from its last day `lastDay` on `today`.
    public struct Warning: Hashable, Sendable {
        public var region: String
        public var feed: String
        public var lastDay: String
        public var daysLeft: Int
        public var today: String

        /// What the state file remembers: the same feed version of the same region.
        var key: String { Self.key(region: region, feed: feed, lastDay: lastDay) }

        static func key(region: String, feed: String, lastDay: String) -> String {
            [region, feed, lastDay].joined(separator: "\t")
        }

        var message: String {
            let what = "transit feed \(feed) of region \(region)"
            return daysLeft == 0 ? "\(what) runs out today (\(lastDay) is its last day)"
                : "\(what) runs out in \(daysLeft) day\(daysLeft == 1 ? "" : "s") (its last day is \(lastDay))"
        }
    }

    private let regions: RegionRegistry
    private let events: EventHub
    private let logger: DaemonLogger
    private let clock: any WallClock
    private let warningDays: Int
    private let stateFile: URL?
    /// Per `Warning.key`: the service day it was last warned about.
    private var warned: [String: String] = [:]
    /// How often it looks again (a day turns within one interval of it).
    private let interval: Duration

    init(regions: RegionRegistry, events: EventHub, logger: DaemonLogger, clock: any WallClock, warningDays: Int,
         stateFile: URL?, every interval: Duration = .seconds(3_600)) {
        self.interval = interval
        self.regions = regions
        self.events = events
        self.logger = logger.with(["task": "feed expiry"])
        self.clock = clock
        self.warningDays = warningDays
        self.stateFile = stateFile
        warned = Self.read(stateFile)
    }

    /// The warnings due for `feeds` of `region` on the service day of `now` in `zone`: each feed
    /// between `warningDays` and 0 days from its last day, not yet warned about today.
    public static func due(region: String, feeds: [FeedServicePeriod], zone: TimeZone, now: Date, warningDays: Int,
                           warned: [String: String]) -> [Warning] {
        let today = FeedServicePeriod.serviceDay(of: now, in: zone)
        return feeds.compactMap { feed in
            let left = feed.daysLeft(onDayOf: now, in: zone)
            let warning = Warning(region: region, feed: feed.feed, lastDay: feed.lastDate, daysLeft: left, today: today)
            guard (0...warningDays).contains(left), warned[warning.key] != today else { return nil }
            return warning
        }
    }

    /// Looks at every region's feeds now, warns about those due, and returns them.
    @discardableResult
    public func check() -> [Warning] {
        let now = clock.now()
        let handles: [RegionHandle]
        do {
            handles = try regions.handles()
        } catch {
            logger.warning("cannot list the regions to check their feeds", ["error": "\(error)"])
            return []
        }
        var sent: [Warning] = []
        var current: Set<String> = []
        for handle in handles {
            guard let report = handle.importReport() else { continue }
            for feed in report.servicePeriods { current.insert(Warning.key(region: handle.name, feed: feed.feed, lastDay: feed.lastDate)) }
            for warning in Self.due(region: handle.name, feeds: report.servicePeriods, zone: handle.timeZone, now: now,
                                    warningDays: warningDays, warned: warned) {
                // The feed and its days go as fields, so the message stays one greppable text.
                logger.warning(warning.daysLeft == 0 ? "transit feed runs out today" : "transit feed runs out soon",
                               ["region": warning.region, "feed": warning.feed, "last_day": warning.lastDay,
                                "days_left": String(warning.daysLeft)])
                events.publish(.feedExpiring(region: warning.region, feed: warning.feed, lastDay: warning.lastDay,
                                             daysLeft: warning.daysLeft, message: warning.message))
                warned[warning.key] = warning.today
                sent.append(warning)
            }
        }
        // Feeds replaced or removed are forgotten, so the file stays as small as the regions.
        let kept = warned.filter { current.contains($0.key) }
        if !sent.isEmpty || kept.count != warned.count {
            warned = kept
            save()
        }
        logger.debug("feeds checked for expiry", ["regions": String(handles.count), "warnings": String(sent.count)])
        return sent
    }

    nonisolated let name = "feed expiry watcher"

    /// Checks again every `interval` until its task is cancelled (the daemon's start-up check
    /// and the checks after imports are the callers' own).
    public func run() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            check()
        }
    }

    private static func read(_ file: URL?) -> [String: String] {
        guard let file, let text = try? String(contentsOf: file, encoding: .utf8) else { return [:] }
        var warned: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { continue }  // a line it cannot read costs at most one more warning
            warned[fields[0...2].joined(separator: "\t")] = fields[3]
        }
        return warned
    }

    /// Writes `warned` atomically: a crash leaves the old list or the new one.
    private func save() {
        guard let stateFile else { return }
        let text = warned.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
        do {
            try Data(text.utf8).write(to: stateFile, options: .atomic)
        } catch {
            logger.warning("cannot record the feeds warned about; a restart today would warn again",
                           ["path": stateFile.path, "error": "\(error)"])
        }
    }
}
