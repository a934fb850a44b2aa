@testable import Daemon
import Foundation
import Planner
import Store
import Streets
import TestSupport
import Transit
import Synchronization
import WireProtocol
import XCTest

/// Issue 45: the daemon's background parts have a lifetime. A `ServiceGroup` starts them in
/// dependency order and, at shutdown, cancels them in reverse, each ended before the one before
/// it is cancelled; an `EventHub` listener is a stream whose listener goes with its consumer.
final class ServiceLifetimeTests: XCTestCase {
    /// Records its start, then its end when cancelled.
    private struct Recording: DaemonService {
        let name: String
        let log: Log

        func start() async { log.add("start \(name)") }

        func run() async {
            await untilCancelled()
            log.add("stop \(name)")
        }
    }

    private final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    func testAGroupStartsItsServicesInOrderAndStopsThemInReverse() async {
        let log = Log()
        let group = ServiceGroup(["store", "server", "gateway"].map { Recording(name: $0, log: log) },
                                 logger: DaemonLogger(level: .error) { _ in })
        await group.run { log.add("shutdown") }
        XCTAssertEqual(log.all, ["start store", "start server", "start gateway", "shutdown",
                                 "stop gateway", "stop server", "stop store"])
    }

    func testAServiceThatEndsOnItsOwnLeavesTheOthersRunningUntilShutdown() async {
        let log = Log()
        let oneOff = TaskService("one-off") { log.add("one-off done") }
        let group = ServiceGroup([Recording(name: "before", log: log), oneOff, Recording(name: "after", log: log)],
                                 logger: DaemonLogger(level: .error) { _ in })
        await group.run {
            // Shutdown waits for the one-off to have run (bounded: a failure, not a hang).
            var looks = 0
            while !log.all.contains("one-off done"), looks < 12_000 {
                looks += 1
                try? await Task.sleep(for: .milliseconds(10))
            }
            log.add("shutdown")
        }
        XCTAssertEqual(log.all.filter { $0.hasPrefix("stop") || $0 == "shutdown" }, ["shutdown", "stop after", "stop before"])
    }

    func testAListenerIsRemovedWhenItsConsumerTaskEnds() async {
        let hub = EventHub()
        // Only the consumer's task holds the stream.
        let consumer = Self.firstEvents(1, of: hub.listen(where: { if case .planDeleted = $0 { true } else { false } }))
        XCTAssertEqual(hub.listenerCount, 1)
        hub.publish(.placeSaved(name: "not wanted"))
        hub.publish(.planDeleted(planID: 7))
        let seen = await consumer.value
        XCTAssertEqual(seen.count, 1)
        // The stream went with the consumer's task: the hub let its listener go (bounded wait).
        var looks = 0
        while hub.listenerCount > 0, looks < 12_000 {
            looks += 1
            try? await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertEqual(hub.listenerCount, 0, "the listener outlived its consumer")
    }

    /// A task that takes the first `count` events of `stream`, then ends.
    private static func firstEvents(_ count: Int, of stream: AsyncStream<DaemonEvent>) -> Task<[DaemonEvent], Never> {
        Task {
            var seen: [DaemonEvent] = []
            for await event in stream {
                seen.append(event)
                if seen.count == count { break }
            }
            return seen
        }
    }

    func testACancelledConsumerTaskRemovesItsListener() async {
        let hub = EventHub()
        let stream = hub.listen()
        let consumer = Task { for await _ in stream {} }
        XCTAssertEqual(hub.listenerCount, 1)
        consumer.cancel()
        await consumer.value
        XCTAssertEqual(hub.listenerCount, 0, "a cancelled consumer's listener is still there")
    }

    /// A part that is a service itself ends everything it started with its run: the calendar
    /// file's listener and timer are child tasks of `run`, so a cancelled run leaves nothing in
    /// the hub (it used to keep stored task handles that only its `stop` ended).
    func testACancelledCalendarFileWroteItsFileAndLeavesNoListenerBehind() async throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = DaemonConfiguration(dataDirectory: directory.path, socketPath: directory.path + "/s.sock")
        let composition = DaemonComposition(configuration: configuration, store: try Store(path: configuration.databasePath),
                                            streets: StreetEngine(dataDirectory: directory, workers: 1), transit: TransitEngine(),
                                            transitImportStep: { TransitEngine.importStep(feeds: $0) })
        let calendar = composition.calendarFile
        let file = directory.appendingPathComponent(PlansCalendarFile.fileName).path
        let running = Task { await calendar.run() }
        // Written as it starts (bounded wait: a failure, not a hang).
        var looks = 0
        while !FileManager.default.fileExists(atPath: file), looks < 12_000 {
            looks += 1
            try? await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: file), "plans.ics was not written as the service started")
        XCTAssertEqual(composition.events.listenerCount, 1, "the calendar file listens to plan changes")
        running.cancel()
        await running.value
        XCTAssertEqual(composition.events.listenerCount, 0, "a cancelled calendar file left its listener in the hub")
        composition.regions.closeAll()
    }

    /// Plans 7 and 8 to refresh; plan 7's refresh waits until `release` is opened.
    private final class HeldRefresh: PlanRefreshing {
        let refreshed = Mutex<[Int64]>([])
        let (started, start) = AsyncStream<Void>.makeStream()
        let (releases, release) = AsyncStream<Void>.makeStream()

        func plans(inRegion region: String) async throws -> [Int64] { [7, 8] }

        /// Whether plan 7 started within `seconds`: bounded, so a refresher that never starts it
        /// fails the test rather than hanging it.
        func startedWithin(seconds: Int) async -> Bool {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { [started] in
                    for await _ in started { return true }
                    return false
                }
                group.addTask { try? await Task.sleep(for: .seconds(seconds)); return false }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
        }

        func run(planID id: Int64, live: Bool) async throws -> PlanRefreshJob.Outcome {
            if id == 7 {
                start.yield()
                for await _ in releases { break }
            }
            refreshed.withLock { $0.append(id) }
            return .refreshed
        }
    }

    /// The refresher's worker is a child of its `run`: a cancelled run ends after the plan in
    /// hand (which must not hold the store past it), drops what was queued behind it, and takes
    /// no more work (it used to be a stored task that only `stop()` ended).
    func testACancelledRefresherEndsAfterThePlanInHandAndTakesNoMore() async {
        let job = HeldRefresh()
        let refresher = BackgroundRefresher(job: job, owedFile: nil, logger: DaemonLogger(level: .error) { _ in })
        let running = Task { await refresher.run() }
        await refresher.timetableChanged(region: "tampere")
        let started = await job.startedWithin(seconds: 120)
        XCTAssertTrue(started, "the refresher did not start plan 7 within 120 s")
        XCTAssertEqual(refresher.state.queued, [8])
        running.cancel()
        job.release.yield()
        await running.value
        XCTAssertEqual(job.refreshed.withLock { $0 }, [7], "the plan in hand finished, the one queued behind it was dropped")
        XCTAssertEqual(refresher.state.queued, [])
        XCTAssertNil(refresher.state.running)
        await refresher.timetableChanged(region: "tampere")
        await refresher.planCopied(from: 7, as: 20, wasOwed: true)
        XCTAssertEqual(refresher.state.queued, [], "a stopped refresher queues nothing")
    }

    /// Only the run's cancellation ends the refresher (no flag set beside it): a timetable that
    /// changes while a cancelled run finishes its plan in hand is recorded as owed, for the next
    /// start, and nothing it queued outlives the run.
    func testATimetableChangeWhileACancelledRefresherFinishesItsPlanIsOnlyRecordedAsOwed() async throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let owedFile = directory.appendingPathComponent(BackgroundRefresher.owedFileName)
        let job = HeldRefresh()
        let refresher = BackgroundRefresher(job: job, owedFile: owedFile, logger: DaemonLogger(level: .error) { _ in })
        let running = Task { await refresher.run() }
        await refresher.timetableChanged(region: "tampere")
        let started = await job.startedWithin(seconds: 120)
        XCTAssertTrue(started, "the refresher did not start plan 7 within 120 s")
        running.cancel()
        await refresher.timetableChanged(region: "pirkanmaa")
        job.release.yield()
        await running.value
        XCTAssertEqual(job.refreshed.withLock { $0 }, [7], "only the plan in hand was refreshed")
        XCTAssertEqual(refresher.state.queued, [], "what was queued as the run ended outlived it")
        XCTAssertNil(refresher.state.running)
        XCTAssertEqual(try String(contentsOf: owedFile, encoding: .utf8), "pirkanmaa\ntampere\n",
                       "both regions are owed a refresh at the next start")
    }

    /// The poller's loops end by the run's cancellation alone: a run cancelled while its loop
    /// waits an hour for the next poll returns (bounded wait: a failure, not a hang).
    func testACancelledPollersRunEndsWhileItsLoopWaitsForTheNextPoll() async throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = DaemonConfiguration(dataDirectory: directory.path, socketPath: directory.path + "/s.sock")
        let board = LiveFeedBoard(clock: SystemClock())
        let composition = DaemonComposition(configuration: configuration, store: try Store(path: configuration.databasePath),
                                            streets: StreetEngine(dataDirectory: directory, workers: 1), transit: TransitEngine(),
                                            transitImportStep: { TransitEngine.importStep(feeds: $0) }, live: board,
                                            logger: DaemonLogger(level: .error) { _ in })
        defer { composition.regions.closeAll() }
        // A feed that is not there: the loop's first poll fails, then it waits an hour.
        let feed = directory.appendingPathComponent("missing.pb").path
        try RealtimeSettingsFile(dataDirectory: directory).save(
            ["tampere": try RealtimeSettings.validated(feeds: [RealtimeSource(url: feed)], intervalSeconds: 3600)])
        let poller = composition.realtime
        await poller.start()
        let running = Task { await poller.run() }
        var looks = 0
        while board.states(of: "tampere")?.first?.lastFetch == nil, looks < 12_000 {
            looks += 1
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertEqual(board.states(of: "tampere")?.first?.condition, .failing, "the loop did not poll its feed within 120 s")
        running.cancel()
        let ended = Mutex(false)
        Task { await running.value; ended.withLock { $0 = true } }
        looks = 0
        while !ended.withLock({ $0 }), looks < 12_000 {
            looks += 1
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertTrue(ended.withLock { $0 }, "the cancelled run did not end within 120 s: its loop went on waiting")
    }

    /// A loop its region's settings replaced or ended writes nothing in the moment before its
    /// task is cancelled: the board takes a region's feeds only from the loop holding its claim.
    func testALoopReplacedOrEndedCannotWriteItsRegionsFeeds() {
        let board = LiveFeedBoard(clock: SystemClock())
        let state = { (source: String) in
            RealtimeFeedState(source: source, gtfsFeed: nil, intervalSeconds: 30, condition: .waiting, timeZone: TimeZone(identifier: "UTC")!)
        }
        let first = board.claim(region: "tampere", states: [state("old.pb")], lastGood: [:])
        XCTAssertTrue(board.post(region: "tampere", claim: first, feeds: [], states: [state("old.pb")], lastGood: [:]))
        let second = board.claim(region: "tampere", states: [state("new.pb")], lastGood: [:])
        XCTAssertFalse(board.holds(first, region: "tampere"))
        XCTAssertFalse(board.post(region: "tampere", claim: first, feeds: [], states: [state("old.pb")], lastGood: [:]),
                       "the replaced loop wrote over its successor's feeds")
        XCTAssertEqual(board.states(of: "tampere")?.map(\.source), ["new.pb"])
        board.remove(region: "tampere")
        XCTAssertFalse(board.post(region: "tampere", claim: second, feeds: [], states: [state("new.pb")], lastGood: [:]),
                       "an ended loop brought its region's feeds back")
        XCTAssertNil(board.states(of: "tampere"))
    }
}
