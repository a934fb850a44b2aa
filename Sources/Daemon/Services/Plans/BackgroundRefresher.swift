import Foundation
import Synchronization

/// Refreshes stored plans after their region's timetable changed, in the background: one plan
/// at a time, at background priority, so that requests go first. A plan's refresh waits for
/// the user's requests on it under way, and one the user edits while it is being refreshed
/// stores nothing and is put back at the end of the queue (up to `maximumAttempts` tries in all, then
/// counted as failed: it was not refreshed);
/// a plan whose day has passed is left alone. `status` shows the queue.
///
/// The regions whose plans are owed a refresh are kept in `owedFile` until the queue drains,
/// so a daemon killed meanwhile queues their plans again when it starts (`resume`): the queue
/// is derived again from the regions, not stored plan by plan. A plan refreshed twice that way
/// only costs the work.
///
/// A `DaemonService`: the refreshing is done by its `run`, until cancelled; what it is asked
/// meanwhile reaches the run as requests on streams (a wake-up for the worker, a region whose
/// live refresh waits for its minute), so its work is all child tasks of the run.
public actor BackgroundRefresher: DaemonService {
    public static let maximumAttempts = 3
    /// The file in the data directory naming, one per line, the regions still owed a refresh.
    public static let owedFileName = "refresh-owed"

    private let job: any PlanRefreshing
    private let logger: DaemonLogger
    private let owedFile: URL?
    private var owed: Set<String> = []
    private var queue: [Int64] = [] { didSet { publish() } }
    /// Queued plans whose refresh is for live data (`liveTimesChanged`).
    private var liveQueued: Set<Int64> = []
    /// When each region's plans were last queued for live data, and the regions waiting for
    /// their minute to pass.
    private var lastLive: [String: ContinuousClock.Instant] = [:]
    /// Regions whose live refresh waits in `run` for its minute to pass.
    private var deferredLive: Set<String> = []
    private var attempts: [Int64: Int] = [:]
    private var running: Int64? { didSet { publish() } }
    /// The worker was woken (`wake`) and has not yet drained the queue.
    private var working = false
    /// Wakes the worker in `run` (one wake-up waits at most: the worker drains the whole queue).
    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// Regions whose live refresh is taken once the instant passes, for `run`.
    private let deferrals: AsyncStream<(region: String, at: ContinuousClock.Instant)>
    private let deferral: AsyncStream<(region: String, at: ContinuousClock.Instant)>.Continuation
    /// Set once `run` has ended (the daemon is stopping): a timetable changed afterwards (an
    /// import or update finishing during the shutdown) is only recorded as owed, for the next
    /// start, and nothing more is queued. (What is queued while the run finishes the plan in hand
    /// is dropped as it ends.)
    private var stopped = false
    private var finished: [PlanRefreshJob.Outcome: Int] = [:] { didSet { publish() } }
    private var failed = 0 { didSet { publish() } }
    private var retries = 0 { didSet { publish() } }
    /// `state`, made by `publish` at each change.
    private let published = Mutex(QueueState(running: nil, queued: [], refreshed: 0, retried: 0, leftAlone: 0, failed: 0))

    /// The queue as `status` shows it (`WireDocuments.refreshQueue`).
    public struct QueueState: Hashable, Sendable {
        /// The plan being refreshed now.
        public var running: Int64?
        /// Plans waiting, in order.
        public var queued: [Int64]
        public var refreshed: Int
        /// Refreshes started again because the user edited the plan meanwhile.
        public var retried: Int
        /// Plans left alone because their day had passed.
        public var leftAlone: Int
        public var failed: Int
    }

    init(job: any PlanRefreshing, owedFile: URL?, logger: DaemonLogger) {
        self.job = job
        self.owedFile = owedFile
        self.logger = logger.with(["task": "background refresh"])
        (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        (deferrals, deferral) = AsyncStream<(region: String, at: ContinuousClock.Instant)>.makeStream()
    }

    public nonisolated var name: String { "background refresher" }

    /// Refreshes the plans queued, one at a time, and takes the deferred live refreshes when
    /// their minute has passed, until cancelled (the daemon is stopping); then it stops after the
    /// plan in hand (which lets the store go before the daemon closes it) and drops the queue.
    /// Its cancellation alone ends it: the streams' iterations end with it, and so do the worker's
    /// loop and the deferred refreshes' sleeps.
    public func run() async {
        let (wakeUps, deferrals) = (wakeUps, deferrals)
        await withDiscardingTaskGroup { group in
            group.addTask(priority: .background) {
                for await _ in wakeUps { await self.work() }
            }
            for await (region, instant) in deferrals {
                group.addTask {
                    try? await Task.sleep(until: instant, clock: .continuous)
                    guard !Task.isCancelled else { return }
                    await self.takeDeferredLive(region: region)
                }
            }
        }
        stopped = true
        deferredLive.removeAll()
        queue.removeAll()
        liveQueued.removeAll()
        working = false
    }

    /// Wakes the worker in `run` unless it is already working.
    private func startWorking() {
        guard !working else { return }
        working = true
        wake.yield()
    }

    /// Queues again the plans of the regions a previous run left owed a refresh (it was killed
    /// or stopped before the queue drained).
    public func resume() async {
        guard let owedFile, let text = try? String(contentsOf: owedFile, encoding: .utf8) else { return }
        let regions = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        guard !regions.isEmpty else { return }
        logger.notice("resuming the refresh a previous run left unfinished", ["regions": regions.joined(separator: ",")])
        for region in regions.sorted() { await timetableChanged(region: region) }
    }

    /// Queues every plan of `region` (not already queued) and starts working if idle.
    public func timetableChanged(region: String) async {
        if owed.insert(region).inserted { saveOwed() }
        guard !stopped else { return }
        // A plan being refreshed right now is queued again: its refresh may predate this timetable.
        guard let added = await queuePlans(of: region) else { return }
        logger.info("timetable changed; plans queued for refresh", ["region": region, "plans": "\(added.count)"])
        guard !working else { return }
        if queue.isEmpty {
            owed.removeAll() // nothing to refresh: nothing owed
            saveOwed()
        } else {
            startWorking()
        }
    }

    /// A realtime feed of `region` changed what its trips do: today's plans there are asked
    /// again (and what moved is published), at most once per `liveInterval` per region — a
    /// change within it is taken when it ends, so the last word is never lost.
    public func liveTimesChanged(region: String) async {
        guard !stopped, !deferredLive.contains(region) else { return }
        let now = ContinuousClock.now
        if let last = lastLive[region], now < last + Self.liveInterval {
            deferredLive.insert(region)
            deferral.yield((region, last + Self.liveInterval))
            return
        }
        lastLive[region] = now
        guard await queuePlans(of: region, live: true) != nil else { return }
        if !queue.isEmpty { startWorking() }
    }

    /// Queues the plans of `region` not queued yet (`live`: their refresh is for live data);
    /// the ones added, or nil when they cannot be listed.
    private func queuePlans(of region: String, live: Bool = false) async -> [Int64]? {
        let ids: [Int64]
        do {
            ids = try await job.plans(inRegion: region)
        } catch {
            logger.warning("cannot list the plans to refresh", ["region": region, "error": "\(error)"])
            return nil
        }
        guard !stopped else { return nil } // the run ended while the plans were listed
        let added = ids.filter { !queue.contains($0) }
        for id in added { attempts[id] = 0 }
        queue.append(contentsOf: added)
        if live { liveQueued.formUnion(ids) }
        return added
    }

    /// Whether plan `id` is owed a refresh: queued, or being refreshed.
    public func isOwed(_ id: Int64) -> Bool { running == id || queue.contains(id) }

    /// A copy of a plan owed a refresh (`wasOwed`: it was when the copy read it; or it still is)
    /// is queued too: its legs are the original's, of the timetable before the change, and no
    /// timetable change will queue it. (A copy of a plan refreshed meanwhile only costs the work.)
    public func planCopied(from original: Int64, as copy: Int64, wasOwed: Bool) {
        guard !stopped, wasOwed || isOwed(original), !queue.contains(copy) else { return }
        attempts[copy] = 0
        queue.append(copy)
        startWorking()
    }

    /// At most one live refresh of a region's plans per this interval.
    public static let liveInterval = Duration.seconds(60)

    private func takeDeferredLive(region: String) async {
        deferredLive.remove(region)
        await liveTimesChanged(region: region)
    }

    /// The queue as `status` shows it, as of its last change: read without waiting for the
    /// actor (`status` is answered on a connection's own thread).
    public nonisolated var state: QueueState { published.withLock { $0 } }

    /// Makes `state` again from the queue's state; every change to that state calls it.
    private func publish() {
        let document = QueueState(running: running, queued: queue, refreshed: finished[.refreshed] ?? 0, retried: retries,
                                            leftAlone: finished[.dayPassed] ?? 0, failed: failed)
        published.withLock { $0 = document }
    }

    private func work() async {
        while !Task.isCancelled, !queue.isEmpty {
            let id = queue[0]
            running = id // before the queue loses it: `status` never shows an idle queue meanwhile
            queue.removeFirst()
            let live = liveQueued.remove(id) != nil
            do {
                let outcome = try await job.run(planID: id, live: live)
                logger.debug("plan refreshed in the background", ["plan_id": "\(id)", "outcome": outcome.rawValue])
                if outcome == .superseded, (attempts[id] ?? 0) + 1 < Self.maximumAttempts {
                    attempts[id, default: 0] += 1
                    retries += 1
                    if !queue.contains(id) { queue.append(id) } // a timetable change may have queued it again
                    if live { liveQueued.insert(id) }
                } else if outcome == .superseded {
                    failed += 1 // not refreshed: `status` must not lose it
                    logger.warning("background refresh given up: the plan was edited during each try",
                                   ["plan_id": "\(id)", "tries": "\(Self.maximumAttempts)"])
                } else {
                    finished[outcome, default: 0] += 1
                }
            } catch {
                if Task.isCancelled { break }
                failed += 1
                logger.warning("background refresh failed", ["plan_id": "\(id)", "error": "\(error)"])
            }
            running = nil
            await Task.yield()
        }
        running = nil
        working = false
        if !Task.isCancelled, queue.isEmpty {
            owed.removeAll()
            saveOwed()
        }
    }

    /// Writes `owed` (atomically: a crash leaves the old list or the new one).
    private func saveOwed() {
        guard let owedFile else { return }
        do {
            if owed.isEmpty {
                if FileManager.default.fileExists(atPath: owedFile.path) { try FileManager.default.removeItem(at: owedFile) }
            } else {
                try Data(owed.sorted().map { $0 + "\n" }.joined().utf8).write(to: owedFile, options: .atomic)
            }
        } catch {
            logger.warning("cannot record the regions owed a refresh; a crash now would forget them",
                           ["path": owedFile.path, "error": "\(error)"])
        }
    }
}
