import Foundation
import HTTPTestSupport
import TestSupport
import Transit
import WireProtocol
import XCTest

/// The daemon's part of the GTFS-Realtime fuzz test (issue 44; the in-process part, 20,480
/// feeds: `RealtimeFeedFuzzTests`). A real daemon on a small written region polls eight feeds,
/// seven over HTTP from 127.0.0.1 and one a file, each a new mutated feed (boundary varints
/// ±2^63 and 2^64-1, negative times, huge counts, cut and flipped bytes) at every poll: setting
/// the feeds again polls them at once, so a round is one poll of eight new feeds. Throughout the
/// daemon answers `status` (no death), then a `compare` over the fuzzed trip, and after a restart
/// with the last feeds still set (a feed that killed it would kill it again) the same.
final class RealtimeFuzzDaemonTests: XCTestCase {
    static let rounds = 150
    static let feedsPerRound = 8
    static let seed: UInt64 = 4_402
    static let clockStart = "2022-03-02T07:50:00+02:00"
    /// Bounds each wait for a round's polls (they take milliseconds; a fetch times out at 10 s).
    static let roundDeadlineSeconds: TimeInterval = 60

    private let region = SmallRegion(name: "fuzzville", latitude: 61.4978, longitude: 23.7610)
    private let line = SmallRegion.Line(zone: "Europe/Helsinki", fromStop: "Fuzz Square", toStop: "Varint Corner",
                                        departure: "08:00:00", minutes: 10, dates: ("20220101", "20221231"))

    func testEightMutatedFeedsAtEachOfAHundredAndFiftyPollsLeaveTheDaemonAnsweringAndAfterARestart() async throws {
        let harness = try makeDaemon()
        try harness.start(extraArguments: ["--clock-start", Self.clockStart])
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeFeed(line, in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let folder = harness.directory.appendingPathComponent("feeds", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try LocalHTTPServer(directory: folder)
        defer { server.stop() }
        let files = (0..<Self.feedsPerRound).map { folder.appendingPathComponent("feed-\($0).pb") }
        let sources = files.dropLast().map { server.url("/\($0.lastPathComponent)") } + [files.last!.path]

        let seeds = try seeds().map { try XCTUnwrap(ProtobufMessage(parsing: $0)) }
        var random = SeededRandom(seed: Self.seed)
        var client = try harness.client()
        var states: [String: Int] = [:]
        for round in 0..<Self.rounds {
            for (index, file) in files.enumerated() {
                let body = RealtimeFeedMutations.mutated(seeds[(round + index) % seeds.count], maximumBodyBytes: 16 << 10, &random)
                try body.write(to: file, options: .atomic)
            }
            _ = try await client.call(Endpoints.regionSet, Params.RegionSet(name: region.name, realtime: sources))
            guard let polled = try await polledFeeds(client, "round \(round) of seed \(Self.seed)") else { return }
            for feed in polled { states[feed.state, default: 0] += 1 }
        }
        XCTAssertTrue(harness.process?.isRunning == true, "the daemon died:\n\(harness.log.suffix(3000))")
        XCTAssertGreaterThan(states["failing", default: 0], 0, "some mutants are refused: \(states)")
        XCTAssertGreaterThan(states.filter { $0.key != "failing" }.values.reduce(0, +), 0, "some decode and are applied or ignored: \(states)")
        try await assertAnswers(client, "after \(Self.rounds * Self.feedsPerRound) mutated feeds")

        // Restarted with the last round's feeds still set and served: they are polled again at start.
        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start(extraArguments: ["--clock-start", Self.clockStart])
        client = try harness.client()
        guard try await polledFeeds(client, "after the restart") != nil else { return }
        try await assertAnswers(client, "after the restart")
    }

    // MARK: - Helpers

    /// The region's feeds once none is `waiting` (each was polled), or nil after failing the test.
    private func polledFeeds(_ client: WireClient, _ when: String) async throws -> [RealtimeFeedDocument]? {
        let deadline = Date().addingTimeInterval(Self.roundDeadlineSeconds)
        var feeds: [RealtimeFeedDocument] = []
        while Date() < deadline {
            let status = try await client.call(Endpoints.status, Params.Empty())
            feeds = status.regions.first { $0.name == region.name }?.realtimeFeeds ?? []
            if feeds.count == Self.feedsPerRound, !feeds.contains(where: { $0.state == "waiting" }) { return feeds }
            usleep(5_000)
        }
        XCTFail("\(when): the feeds were not polled within \(Self.roundDeadlineSeconds) s: \(feeds.map(\.state))")
        return nil
    }

    /// `status` and a `compare` along the fuzzed line answer.
    private func assertAnswers(_ client: WireClient, _ when: String) async throws {
        let status = try await client.call(Endpoints.status, Params.Empty())
        XCTAssertEqual(status.regions.first?.name, region.name, when)
        let compare = try await client.call(Endpoints.compare, Params.Compare(
            from: SmallRegion.text(region.point(row: 0, column: 0)), to: SmallRegion.text(region.point(row: 8, column: 8)),
            at: "2022-03-02T07:55"))
        XCTAssertFalse(compare.options.isEmpty, "\(when): \(compare)")
    }

    /// Valid feeds over the line's trip T1 (route R, stops S1 → S2) in every way the overlay
    /// reads: delays and absolute times by stop sequence and stop, by route and start time, a
    /// cancellation, skipped stops, and alerts with periods on the route, a stop and the trip.
    private func seeds() throws -> [Data] {
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: Self.clockStart))
        let departure = Int64(start.timeIntervalSince1970) + 600
        let byStop = RealtimeTripUpdate(
            entityID: "u1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220302"),
            stopTimeUpdates: [RealtimeStopTimeUpdate(stopSequence: 1, stopID: "S1", departure: RealtimeStopTimeEvent(delay: 120, uncertainty: 30)),
                              RealtimeStopTimeUpdate(stopSequence: 2, stopID: "S2", arrival: RealtimeStopTimeEvent(time: departure + 780))],
            delay: 60, timestamp: start)
        let byRoute = RealtimeTripUpdate(
            entityID: "u2", trip: RealtimeTripDescriptor(routeID: "R", directionID: 0, startTime: "08:00:00", startDate: "20220302"),
            stopTimeUpdates: [RealtimeStopTimeUpdate(stopID: "S1", departure: RealtimeStopTimeEvent(delay: 300)),
                              RealtimeStopTimeUpdate(stopSequence: 2, relationship: .skipped)])
        let cancelled = RealtimeTripUpdate(entityID: "u3", trip: RealtimeTripDescriptor(tripID: "T1", relationship: .canceled))
        let alert = RealtimeAlert(entityID: "a1", activePeriods: [.init(start: departure - 3_600, end: departure + 7_200)],
                                  informedEntities: [RealtimeEntitySelector(routeID: "R"), RealtimeEntitySelector(stopID: "S1"),
                                                     RealtimeEntitySelector(trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220302"))],
                                  cause: "construction", effect: "detour", header: [RealtimeTranslation(text: "Works", language: "en")],
                                  description: [RealtimeTranslation(text: "Stop S1 moved")])
        return [RealtimeFeed(timestamp: start, tripUpdates: [byStop, byRoute], alerts: [alert]),
                RealtimeFeed(timestamp: start, tripUpdates: [cancelled, byStop], alerts: [alert, alert]),
                RealtimeFeed(timestamp: start, tripUpdates: [byRoute])].map { $0.encoded() }
    }
}
