import Fetching
import Foundation
import Planner
import Transit

/// Polls each region's GTFS-Realtime feeds in the background and lays the fresh ones over its
/// timetable: one loop per region, its feeds fetched together (conditionally, `If-None-Match` /
/// `If-Modified-Since`; a file by its size and time) on threads of their own, so no request ever
/// waits on a poll and no feed on another. A feed that cannot be fetched or decoded keeps its last good version until
/// that goes stale (the loop wakes for that, between polls); every feed failing backs the loop off. After a change the region's plans for
/// today are refreshed (`onChange`).
///
/// A `DaemonService`: `start` reads the saved settings, `run` runs every region's loop as a
/// child task until it is cancelled. Loops started and ended later (`set`, `remove`) reach the
/// run as requests on a stream, so every loop is a child of the run and ends with it. A loop
/// ends one way only, its task cancelled; what a loop its settings replaced would still write
/// in the moment before that, the board refuses (`LiveFeedBoard.Claim`).
actor RealtimePoller: DaemonService {
    /// A feed whose header is older than this against the daemon's clock is ignored.
    static let staleAfter: TimeInterval = 300
    /// A feed whose header is further ahead of the daemon's clock than this is ignored (`future`):
    /// a clock or unit that is wrong, not a fresh feed.
    static let futureAfter: TimeInterval = 60
    /// Each fetch: connect, transfer and stall limits together.
    static let fetchTimeout: TimeInterval = 10
    /// The longest wait between polls after failures.
    static let maximumBackoffSeconds = 600
    /// Seconds a round's answers wait for the other feeds' before they are settled together
    /// (`RegionLoop.pollAll`): one overlay and one refresh for feeds that answer close together.
    static let settleWindow: Double = 2

    private let settingsFile: RealtimeSettingsFile
    private let board: LiveFeedBoard
    private let regions: RegionRegistry
    private let clock: any WallClock
    private let logger: DaemonLogger
    private let onChange: @Sendable (String) async -> Void
    /// Follow a feed URL's redirect to another host or port (`allow_cross_host_redirects`).
    private let allowCrossHostRedirects: Bool
    private var settings: [String: RealtimeSettings] = [:]
    /// What `run` is asked to do, in order; made here, so a request before the run starts waits for it.
    private let requests: AsyncStream<LoopRequest>
    private let requested: AsyncStream<LoopRequest>.Continuation

    /// A region's loop to start (in place of the one it has), or to end.
    private enum LoopRequest: Sendable {
        case start(RegionLoop)
        /// Ends the region's loop; once it has, its decoded feeds' pages are given back.
        case end(region: String)
    }

    init(settingsFile: RealtimeSettingsFile, board: LiveFeedBoard, regions: RegionRegistry, clock: any WallClock,
         logger: DaemonLogger, allowCrossHostRedirects: Bool = false,
         onChange: @escaping @Sendable (String) async -> Void) {
        self.settingsFile = settingsFile
        self.board = board
        self.regions = regions
        self.clock = clock
        self.logger = logger.with(["task": "realtime"])
        self.onChange = onChange
        self.allowCrossHostRedirects = allowCrossHostRedirects
        (requests, requested) = AsyncStream<LoopRequest>.makeStream()
    }

    nonisolated var name: String { "realtime poller" }

    /// Seconds until the next poll: the interval, doubled after each round in which every feed
    /// failed, up to `maximumBackoffSeconds` (or the interval, when that is longer).
    static func pause(interval: Int, failingRounds: Int) -> Int {
        min(interval << min(failingRounds, 16), max(interval, maximumBackoffSeconds))
    }

    /// Reads the saved settings (before any request can change them) and asks for every region
    /// that has feeds to be polled. (`async` as the protocol's: a caller's `await start()` must
    /// not find the protocol's empty default instead.)
    func start() async {
        do {
            settings = try settingsFile.load()
        } catch {
            logger.error("cannot read the realtime settings; no feed is polled", ["error": "\(error)"])
            return
        }
        for (region, regionSettings) in settings.sorted(by: { $0.key < $1.key }) { startLoop(region, regionSettings) }
    }

    /// Runs every region's loop, each a child task, until cancelled; then ends them all and
    /// returns once they have: a fetch under way is cancelled within about a second, not left to
    /// its 10 s timeout. Every loop ends by its task's cancellation: the run's, or, when a request
    /// replaced or ended it, its own (a task group cannot cancel one child, so each loop runs in
    /// a group of its own that is cancelled when its `ending` stream finishes).
    func run() async {
        let requests = requests
        await withDiscardingTaskGroup { group in
            var endings: [String: AsyncStream<Bool>.Continuation] = [:]
            for await request in requests {
                switch request {
                case .start(let loop):
                    endings.removeValue(forKey: loop.region)?.finish()
                    let (ending, end) = AsyncStream<Bool>.makeStream()
                    endings[loop.region] = end
                    group.addTask(priority: .utility) {
                        let trim = await Self.poll(loop, until: ending)
                        // The loop held the feeds it decoded until it ended: their pages are given back now.
                        if trim { MemoryTrim.releaseFreePages() }
                    }
                case .end(let region):
                    guard let end = endings.removeValue(forKey: region) else { continue }
                    end.yield(true)
                    end.finish()
                }
            }
            // Cancelled: the group cancels the loops and waits for them.
        }
    }

    /// Runs `loop` until `ending` finishes (a request replaced or ended it) or the calling task is
    /// cancelled, then cancels it and returns once it has ended. True when `ending` said its
    /// region's feeds went (`LoopRequest.end`).
    private static func poll(_ loop: RegionLoop, until ending: AsyncStream<Bool>) async -> Bool {
        await withTaskGroup(of: Void.self) { polling -> Bool in
            polling.addTask { await loop.run() }
            var feedsWent = false
            for await said in ending { feedsWent = said } // ends too when the calling task is cancelled
            polling.cancelAll()
            return feedsWent
        }
    }

    /// `entries` with each tie to a GTFS feed (as it was given: its name, its name without
    /// `.zip`, or its position) kept by its feed's name (`GTFSFeedNames.canonical`).
    /// - throws: `DaemonError.invalidParams` naming a feed the region does not have.
    private func sources(_ entries: [RealtimeSource], region: String) throws -> [RealtimeSource] {
        guard entries.contains(where: { $0.gtfsFeed != nil }) else { return entries }
        let names = GTFSFeedNames(try regions.handle(named: region).manifest)
        return try entries.map { RealtimeSource(url: $0.url, gtfsFeed: try $0.gtfsFeed.map(names.canonical)) }
    }

    /// Whether `set` would take these settings.
    /// - throws: `DaemonError.invalidParams` as `set` would.
    func check(region: String, feeds: [RealtimeSource]?, intervalSeconds: Int?) throws {
        let newFeeds = try feeds.map { try sources($0, region: region) } ?? settings[region]?.feeds ?? []
        if newFeeds.isEmpty {
            if feeds == nil {
                throw DaemonError.invalidParams("region \(region) has no realtime feed: give --realtime URL with the interval")
            }
            return
        }
        _ = try RealtimeSettings.validated(feeds: newFeeds, intervalSeconds: intervalSeconds ?? settings[region]?.intervalSeconds)
    }

    /// The region's settings after `region.set`: feeds replaced when `feeds` is given (empty
    /// removes them; each a source, tied or not to one of the region's GTFS feeds), the interval
    /// when `intervalSeconds` is. Saved first, then polled at once.
    /// - throws: `DaemonError.invalidParams` naming the bad feed or interval; nothing changes then.
    func set(region: String, feeds: [RealtimeSource]?, intervalSeconds: Int?) throws -> RealtimeSettings? {
        try check(region: region, feeds: feeds, intervalSeconds: intervalSeconds)
        let current = settings[region]
        let newFeeds = try feeds.map { try sources($0, region: region) } ?? current?.feeds ?? []
        if newFeeds.isEmpty {
            var changed = settings
            changed[region] = nil
            try settingsFile.save(changed)
            settings = changed
            endLoop(region) // first: a loop applying now finishes before the clear, one about to apply does not
            clearOverlay(region)
            return nil
        }
        let validated = try RealtimeSettings.validated(feeds: newFeeds, intervalSeconds: intervalSeconds ?? current?.intervalSeconds)
        var changed = settings
        changed[region] = validated
        try settingsFile.save(changed)
        settings = changed
        startLoop(region, validated)
        return validated
    }

    /// The region is gone: forget its feeds.
    func remove(region: String) {
        guard settings[region] != nil else { return }
        var changed = settings
        changed[region] = nil
        do {
            try settingsFile.save(changed)
        } catch {
            logger.warning("cannot forget the realtime feeds of a removed region", ["region": region, "error": "\(error)"])
        }
        settings = changed
        endLoop(region)
    }

    /// Stops the region's loop and forgets its feeds. The loop holds the feeds it decoded until
    /// it ends (a fetch under way ends within about a second): `run` gives their pages back after
    /// that, not while it still holds them.
    private func endLoop(_ region: String) {
        requested.yield(.end(region: region))
        board.remove(region: region) // the loop's claim with it: it writes nothing more
    }

    /// Asks `run` to poll the region with these settings, in place of the loop it has.
    private func startLoop(_ region: String, _ regionSettings: RealtimeSettings) {
        // A feed set again keeps its last good version (until it goes stale); a feed no longer set goes.
        let kept = board.lastGood(of: region).filter { url, _ in regionSettings.feeds.contains { $0.url == url } }
        let zone = (try? regions.handle(named: region).timeZone) ?? .current
        // The new loop's claim voids the one it replaces: that loop writes nothing more.
        let claim = board.claim(region: region, states: regionSettings.feeds.map {
            RealtimeFeedState(source: SourceURL.redacted($0.url), gtfsFeed: $0.gtfsFeed, intervalSeconds: regionSettings.intervalSeconds,
                              condition: .waiting, timeZone: zone)
        }, lastGood: kept)
        let loop = RegionLoop(region: region, settings: regionSettings, kept: kept, board: board, claim: claim, regions: regions,
                              clock: clock, logger: logger.with(["region": region]), allowCrossHostRedirects: allowCrossHostRedirects,
                              onChange: onChange)
        requested.yield(.start(loop))
    }

    private func clearOverlay(_ region: String) {
        guard let source = try? regions.handle(named: region).openedTransit() else { return }
        _ = board.changingOverlay(region: region, claim: nil) { source.applyRealtime([], now: clock.now()) }
    }
}

/// One region's polling loop (its state lives in the loop, so two regions never wait on each other).
private struct RegionLoop: Sendable {
    let region: String
    let settings: RealtimeSettings
    /// Last good versions of feeds set before, by source.
    let kept: [String: RealtimeFeed]
    let board: LiveFeedBoard
    /// What lets this loop write the region's feeds (void once its settings replaced or ended it).
    let claim: LiveFeedBoard.Claim
    let regions: RegionRegistry
    let clock: any WallClock
    let logger: DaemonLogger
    let allowCrossHostRedirects: Bool
    let onChange: @Sendable (String) async -> Void

    /// Polls until cancelled (the poller's run ended it, or a request replaced or ended it).
    func run() async {
        var feeds = settings.feeds.map { FeedPoll(source: $0.url, gtfsFeed: $0.gtfsFeed, kept: kept[$0.url]) }
        // Nil until the first round applies, even nothing: feeds set in place of others must clear
        // what those left in force when none of the new ones can be fetched.
        var applied: [Int?]? = nil
        var failingRounds = 0
        while !Task.isCancelled {
            await pollAll(&feeds, applied: &applied)
            guard !Task.isCancelled else { return }
            var changed = false
            failingRounds = feeds.allSatisfy({ $0.failures > 0 }) ? failingRounds + 1 : 0
            let pause = RealtimePoller.pause(interval: settings.intervalSeconds, failingRounds: failingRounds)
            let nextPoll = clock.now().addingTimeInterval(TimeInterval(pause))
            // Until the next poll, the loop also wakes when a fresh feed turns stale, so that a
            // feed that stopped answering stops applying then, not at the end of a long backoff.
            repeat {
                guard !Task.isCancelled else { return }
                let now = clock.now()
                await settle(&feeds, applied: &applied, changed: changed, now: now)
                changed = false
                let staleAt = feeds.compactMap { $0.turnsStale(after: now) }.min() ?? nextPoll
                let wait = min(nextPoll, staleAt).timeIntervalSince(now)
                try? await Task.sleep(for: .seconds(max(0, wait)))
            } while clock.now() < nextPoll
        }
    }

    /// Fetches every feed at once and settles what arrived together: once every feed has
    /// answered, or `RealtimePoller.settleWindow` after the first answer of those not yet
    /// settled, whichever comes first. So a round in which N feeds change builds one overlay and
    /// refreshes the plans once, not N times, and a feed that hangs until its timeout holds back
    /// the others' updates by that window at most, neither their fetches.
    private func pollAll(_ feeds: inout [FeedPoll], applied: inout [Int?]?) async {
        enum Arrival: Sendable {
            case polled(index: Int, poll: FeedPoll, changed: Bool)
            /// The window opened by the `window`-th batch ended.
            case windowEnded(window: Int)
        }
        let allowCrossHostRedirects = allowCrossHostRedirects
        await withTaskGroup(of: Arrival.self) { group in
            for (index, poll) in feeds.enumerated() {
                group.addTask {
                    var poll = poll
                    let changed = await poll.poll(logger: logger, clock: clock, allowCrossHostRedirects: allowCrossHostRedirects)
                    return .polled(index: index, poll: poll, changed: changed)
                }
            }
            var outstanding = feeds.count
            // Answers not settled yet: whether one changed, and the window they wait in.
            var waiting = false, changed = false
            var window = 0
            for await arrival in group {
                switch arrival {
                case .polled(let index, let poll, let pollChanged):
                    feeds[index] = poll
                    outstanding -= 1
                    changed = changed || pollChanged
                    if !waiting, outstanding > 0 {
                        window += 1
                        let opened = window
                        group.addTask {
                            try? await Task.sleep(for: .seconds(RealtimePoller.settleWindow))
                            return .windowEnded(window: opened)
                        }
                    }
                    waiting = true
                    guard outstanding == 0 else { continue }
                case .windowEnded(let ended):
                    guard waiting, ended == window, outstanding > 0 else { continue }
                }
                guard !Task.isCancelled else { continue }
                await settle(&feeds, applied: &applied, changed: changed, now: clock.now())
                waiting = false
                changed = false
                // Every feed answered: the window left running has nothing to wait for.
                if outstanding == 0 { group.cancelAll() }
            }
        }
    }

    /// Lays the fresh feeds over the timetable when what is fresh (or a feed) changed, and posts
    /// every feed's state.
    private func settle(_ feeds: inout [FeedPoll], applied: inout [Int?]?, changed: Bool, now: Date) async {
        let fresh = feeds.indices.filter { feeds[$0].isFresh(at: now) }
        let inForce = fresh.map { Optional(feeds[$0].version) }
        let tied = fresh.compactMap { index in feeds[index].feed.map { (feed: $0, gtfsFeed: feeds[index].gtfsFeed) } }
        var report: RealtimeApplyReport?
        // Replaced or ended, its task about to be cancelled: nothing is laid over the timetable.
        guard board.holds(claim, region: region) else { return }
        if inForce != applied || changed {
            // Replaced or ended while it waited for the gate: nothing is laid over the timetable.
            guard case .some(let applying) = board.changingOverlay(region: region, claim: claim, { apply(tied, now: now) }) else { return }
            report = applying
            applied = inForce
        }
        if let report {
            for (position, index) in fresh.enumerated() where position < report.feeds.count {
                feeds[index].lastReport = report.feeds[position]
            }
        }
        board.post(region: region, claim: claim, feeds: tied,
                   states: feeds.map { $0.state(interval: settings.intervalSeconds, now: now, timeZone: zone) },
                   lastGood: Dictionary(feeds.compactMap { poll in poll.feed.map { (poll.source, $0) } }) { first, _ in first })
        if report != nil {
            // The overlay replaced (a feed of 30 MB of alerts holds much) is freed: give its pages back.
            MemoryTrim.releaseFreePages()
            await onChange(region)
        }
    }

    private var zone: TimeZone { (try? regions.handle(named: region).timeZone) ?? .current }

    /// Lays `feeds` over the region's timetable (opening it when needed), each tied to the
    /// position of its GTFS feed in the region as it is now; nil without transit.
    private func apply(_ tied: [(feed: RealtimeFeed, gtfsFeed: String?)], now: Date) -> RealtimeApplyReport? {
        guard let handle = try? regions.handle(named: region), handle.manifest.hasTransit else {
            logger.warning("realtime feeds for a region without a timetable are not applied")
            return nil
        }
        let names = GTFSFeedNames(handle.manifest)
        let feeds = tied.map { names.tie($0.feed, to: $0.gtfsFeed) }
        do {
            guard let report = try handle.legSource(for: .transit).applyRealtime(feeds, now: now) else { return nil }
            let refused = report.feeds.reduce(0) { $0 + $1.tripUpdatesRefused.values.reduce(0, +) }
            logger.info("realtime applied", ["feeds": "\(feeds.count)",
                                              "trip_updates": "\(report.feeds.reduce(0) { $0 + $1.tripUpdatesApplied })",
                                              "refused": "\(refused)"])
            return report
        } catch {
            logger.warning("cannot open the timetable to apply realtime feeds", ["error": "\(error)"])
            return nil
        }
    }
}

/// One feed's polling state: its validators, the last good decoded version, failures.
private struct FeedPoll: Sendable {
    let source: String
    /// The region's GTFS feed it belongs to (`RealtimeSource.gtfsFeed`); nil: any.
    let gtfsFeed: String?
    var etag: String?
    var lastModified: String?
    /// A file's size and modification time at its last read.
    var fileStamp: String?
    var feed: RealtimeFeed?
    /// Bumped on every new content, so the loop knows what it applied.
    var version = 0
    var lastFetch: Date?
    var lastChange: Date?
    var error: String?
    var failures = 0
    var lastReport: RealtimeApplyReport.Feed?

    init(source: String, gtfsFeed: String? = nil, kept: RealtimeFeed? = nil) {
        self.source = source
        self.gtfsFeed = gtfsFeed
        feed = kept
        version = kept == nil ? 0 : 1
    }

    /// Fetches and decodes; true when the content changed.
    /// - parameter clock: the daemon's, for the fetch and change times shown.
    /// - parameter allowCrossHostRedirects: follow a redirect to another host or port.
    mutating func poll(logger: DaemonLogger, clock: any WallClock, allowCrossHostRedirects: Bool) async -> Bool {
        let request = (source: source, etag: etag, lastModified: lastModified, fileStamp: fileStamp)
        let outcome: PollOutcome
        let stop = CancellationFlag() // the fetch runs on a pool thread, which cannot see this task's cancellation
        do {
            outcome = try await withTaskCancellationHandler {
                try await CPUWorkPool.realtimeFetches.run {
                    try Self.fetch(request, allowCrossHostRedirects: allowCrossHostRedirects, isCancelled: stop.isSet)
                }
            } onCancel: { stop.set() }
        } catch {
            if Task.isCancelled { return false } // the loop is ending: not the feed's failure
            lastFetch = clock.now()
            let message = (error as? FetchError).map { "\($0.code): \($0.message)" }
                ?? "cannot read the feed: \(error.localizedDescription)"
            return failed(message, logger: logger)
        }
        lastFetch = clock.now()
        switch outcome {
        case .unchanged:
            error = nil
            failures = 0
            return false
        case .body(let data, let newEtag, let newLastModified, let stamp):
            let decoded: RealtimeFeed
            do {
                decoded = try RealtimeFeed(decoding: data)
            } catch {
                return failed(error.description, logger: logger)
            }
            etag = newEtag
            lastModified = newLastModified
            fileStamp = stamp
            error = nil
            failures = 0
            // Restamped, the same content is no change: the new stamp keeps it fresh, nothing more.
            let same = decoded.saysTheSame(as: feed)
            feed = decoded
            guard !same else { return false }
            version += 1
            lastChange = clock.now()
            return true
        }
    }

    private mutating func failed(_ message: String, logger: DaemonLogger) -> Bool {
        failures += 1
        error = message
        // The first failure and then every tenth: a feed down for hours must not flood the log.
        if failures == 1 || failures % 10 == 0 {
            logger.warning("realtime feed failed", ["feed": SourceURL.redacted(source), "error": message,
                                                     "failures": "\(failures)"])
        }
        return false
    }

    /// Fresh: decoded, and its header no more than `staleAfter` behind the daemon's clock and no
    /// more than `futureAfter` ahead of it (a feed without a timestamp is taken as fresh when fetched).
    func isFresh(at now: Date) -> Bool {
        guard let feed else { return false }
        guard let stamp = feed.timestamp else { return true }
        return now.timeIntervalSince(stamp) <= RealtimePoller.staleAfter && !isFuture(at: now)
    }

    /// Stamped more than `futureAfter` ahead of the daemon's clock.
    func isFuture(at now: Date) -> Bool {
        guard let stamp = feed?.timestamp else { return false }
        return stamp.timeIntervalSince(now) > RealtimePoller.futureAfter
    }

    /// When a feed fresh at `now` turns stale (just past `staleAfter`), or a feed from the future
    /// turns fresh; nil when neither can happen (not decoded, stale, or no timestamp).
    func turnsStale(after now: Date) -> Date? {
        guard let stamp = feed?.timestamp else { return nil }
        if isFuture(at: now) { return stamp.addingTimeInterval(-RealtimePoller.futureAfter + 0.5) }
        guard isFresh(at: now) else { return nil }
        return stamp.addingTimeInterval(RealtimePoller.staleAfter + 0.5)
    }

    func state(interval: Int, now: Date, timeZone: TimeZone) -> RealtimeFeedState {
        let condition: RealtimeFeedState.Condition = feed == nil ? (failures > 0 ? .failing : .waiting)
            : isFuture(at: now) ? .future : !isFresh(at: now) ? .stale : failures > 0 ? .failing : .live
        var refused = lastReport?.tripUpdatesRefused ?? [:]
        for (reason, count) in lastReport?.alertsRefused ?? [:] { refused["alert_" + reason, default: 0] += count }
        let live = condition == .live
        return RealtimeFeedState(source: SourceURL.redacted(source), gtfsFeed: gtfsFeed, intervalSeconds: interval, condition: condition,
                                 lastFetch: lastFetch, lastChange: lastChange, feedTime: feed?.timestamp, timeZone: timeZone,
                                 tripUpdatesApplied: live ? lastReport?.tripUpdatesApplied ?? 0 : 0,
                                 tripsCancelled: live ? lastReport?.tripsCancelled ?? 0 : 0,
                                 alertsApplied: live ? lastReport?.alertsApplied ?? 0 : 0,
                                 refused: live ? refused : [:], error: error, consecutiveFailures: failures)
    }

    enum PollOutcome: Sendable {
        case unchanged
        case body(Data, etag: String?, lastModified: String?, fileStamp: String?)
    }

    /// One blocking fetch: a URL with its validators, or a file when its size or time changed.
    static func fetch(_ request: (source: String, etag: String?, lastModified: String?, fileStamp: String?),
                      allowCrossHostRedirects: Bool = false,
                      isCancelled: @escaping @Sendable () -> Bool) throws -> PollOutcome {
        guard SourceURL.isURL(request.source) else {
            let attributes = try FileManager.default.attributesOfItem(atPath: request.source)
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            let stamp = "\(size)@\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            if stamp == request.fileStamp { return .unchanged }
            guard size <= RealtimeFeed.maximumBytes else {
                throw FetchError.tooLarge(limit: RealtimeFeed.maximumBytes)
            }
            return .body(try Data(contentsOf: URL(fileURLWithPath: request.source)), etag: nil, lastModified: nil, fileStamp: stamp)
        }
        var fetch = FetchRequest(url: request.source, maxBytes: RealtimeFeed.maximumBytes)
        fetch.ifNoneMatch = request.etag
        fetch.ifModifiedSince = request.lastModified
        fetch.connectTimeout = RealtimePoller.fetchTimeout
        fetch.stallTimeout = RealtimePoller.fetchTimeout
        fetch.totalTimeout = RealtimePoller.fetchTimeout
        fetch.isCancelled = isCancelled
        fetch.allowCrossHostRedirects = allowCrossHostRedirects
        let response = try HTTPFetcher().fetch(fetch)
        if response.notModified { return .unchanged }
        return .body(response.body ?? Data(), etag: response.etag, lastModified: response.lastModified, fileStamp: nil)
    }
}
