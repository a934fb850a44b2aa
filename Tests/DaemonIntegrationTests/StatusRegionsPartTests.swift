@testable import Daemon
import Foundation
import Planner
import Store
import Synchronization
import WireProtocol
import XCTest

/// Issue 27 (speed): `status` keeps its regions part encoded between the part's changes
/// (`RegionsStatusPart`) and splices it into each answer. The answer stays the whole document,
/// byte for byte as `WireCodec` encodes it, and every change of the part shows in the very next
/// `status`: another day in the region's zone, a realtime feed's state, a region imported or
/// removed (`StatusRegionsPartThroughTheDaemonTests`).
final class StatusRegionsPartTests: XCTestCase {
    /// A clock the test sets.
    private final class SetClock: WallClock {
        let time: Mutex<Date>
        init(_ start: Date) { time = Mutex(start) }
        func now() -> Date { time.withLock { $0 } }
        func set(_ date: Date) { time.withLock { $0 = date } }
    }

    private var directory: URL!
    private var composition: DaemonComposition!
    private var dispatcher: RequestDispatcher!
    private var live: LiveFeedBoard!
    /// 2022-01-12 22:59 in Tampere (UTC+2), inside the Nysse feed's period.
    private let clock = SetClock(Date(timeIntervalSince1970: 1_642_021_140)) // 2022-01-12T20:59:00Z

    override func setUpWithError() throws {
        directory = try DaemonHarness.temporaryDirectory()
        try FileManager.default.copyItem(at: try TampereRegion.dataDirectory().appendingPathComponent("regions"),
                                         to: directory.appendingPathComponent("regions"))
        let configuration = DaemonConfiguration(dataDirectory: directory.path, socketPath: directory.path + "/s.sock")
        live = LiveFeedBoard(clock: clock)
        composition = DaemonComposition(configuration: configuration, store: try Store(path: configuration.databasePath),
                                        streets: StreetEngine(dataDirectory: directory, workers: 1), transit: TransitEngine(),
                                        transitImportStep: { TransitEngine.importStep(feeds: $0) }, clock: clock, live: live)
        dispatcher = RequestDispatcher(table: composition.table, counters: composition.counters,
                                       logger: DaemonLogger(level: .warning) { _ in })
    }

    override func tearDown() {
        dispatcher = nil
        composition = nil
        live = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// A `status` answered as a connection's I/O thread answers it: the line and its document.
    private func status(id: Int = 1) throws -> (line: Data, document: StatusDocument) {
        let request = Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#.utf8)
        guard case .answered(let answer?) = dispatcher.answerAtOnce(to: request, connection: 1) else {
            throw NotAnswered()
        }
        let document = try XCTUnwrap(WireCodec.decoder.decode(Envelope.self, from: answer).result, String(decoding: answer, as: UTF8.self))
        return (answer, document)
    }

    private struct Envelope: Decodable { var result: StatusDocument? }
    private struct NotAnswered: Error {}

    private func feed(_ document: StatusDocument) throws -> TransitFeedDocument {
        try XCTUnwrap(document.regions.first?.transitFeeds?.first, "\(document.regions)")
    }

    func testTheAnswerIsTheWholeDocumentEncodedAtOnceWhetherItsPartsAreMadeOrKept() throws {
        let methods: StatusMethods = composition.status
        for id in 1...3 { // the first makes the parts, the next ones write the bytes kept
            clock.set(clock.now().addingTimeInterval(37)) // an uptime that is not 0, another at each answer
            let answer = try methods.statusAnswer(id: .number(Int64(id)), now: clock.now())
            let whole = try WireCodec.resultAnswer(id: .number(Int64(id)), result: try methods.status(
                now: clock.now(), regions: try composition.regions.documents(onDate: nil, now: clock.now())))
            XCTAssertEqual(String(decoding: answer, as: UTF8.self), String(decoding: whole, as: UTF8.self),
                           "answer \(id): the same bytes as the whole document encoded at once")
        }
        let document = try status(id: 4).document
        XCTAssertEqual(document.regions.map(\.name), ["tampere"])
        XCTAssertNotNil(try feed(document).firstDeparture, "a day the feed runs: its hours are shown")
        XCTAssertEqual(try methods.statusAnswer(id: .string("a\"b"), now: clock.now()),
                       try WireCodec.resultAnswer(id: .string("a\"b"), result: try methods.status(
                        now: clock.now(), regions: try composition.regions.documents(onDate: nil, now: clock.now()))),
                       "an id that is a string")
    }

    func testAnotherDayInTheRegionsZoneShowsInTheVeryNextStatus() throws {
        let before = try feed(try status().document)
        XCTAssertEqual(before.serviceDay, "2022-01-12")
        clock.set(clock.now().addingTimeInterval(62 * 60)) // 22:01 UTC: 00:01 on the 13th in Tampere
        let after = try feed(try status().document)
        XCTAssertEqual(after.serviceDay, "2022-01-13", "the day turned in the region's zone")
        XCTAssertEqual(after.daysLeft, try XCTUnwrap(before.daysLeft) - 1)
        XCTAssertEqual(try status().document.regions, try composition.regions.documents(onDate: nil, now: clock.now()))
    }

    /// Tampere's own zone set to New York (UTC-5) while its timetable stays in Helsinki's
    /// (UTC+2): the service day turns at Helsinki's midnight, the days left at New York's, and
    /// the part kept must follow each zone on its own.
    func testARegionWhoseTimetableZoneDiffersFromItsOwnTurnsEachDayInItsZone() throws {
        try composition.regions.catalog.setTimeZone("America/New_York", ofRegion: "tampere") // as `region set --time-zone`
        composition.regions.invalidate("tampere")
        func shown() throws -> TransitFeedDocument {
            let answer = try status().document
            XCTAssertEqual(answer.regions, try composition.regions.documents(onDate: nil, now: clock.now()),
                           "at \(clock.now()): the freshly built document")
            return try feed(answer)
        }
        clock.set(Date(timeIntervalSince1970: 1_642_024_740)) // 2022-01-12T21:59:00Z: 23:59 in Helsinki, 16:59 in New York
        let before = try shown()
        XCTAssertEqual(before.serviceDay, "2022-01-12")
        let daysLeft = try XCTUnwrap(before.daysLeft)

        clock.set(Date(timeIntervalSince1970: 1_642_024_860)) // 22:01Z: 00:01 on the 13th in Helsinki, 17:01 in New York
        let helsinkiMidnight = try shown()
        XCTAssertEqual(helsinkiMidnight.serviceDay, "2022-01-13", "the timetable's day turned")
        XCTAssertEqual(helsinkiMidnight.daysLeft, daysLeft, "the region's own day did not")

        clock.set(Date(timeIntervalSince1970: 1_642_050_060)) // 2022-01-13T05:01:00Z: 00:01 on the 13th in New York
        let newYorkMidnight = try shown()
        XCTAssertEqual(newYorkMidnight.serviceDay, "2022-01-13", "the timetable's day did not turn again")
        XCTAssertEqual(newYorkMidnight.daysLeft, daysLeft - 1, "the region's own day turned")
    }

    func testARealtimeFeedsNewStateShowsInTheVeryNextStatus() throws {
        XCTAssertNil(try status().document.regions.first?.realtimeFeeds)
        let waiting = RealtimeFeedDocument(source: "https://example.org/trips.pb", intervalS: 30, state: "waiting")
        let waitingState = RealtimeFeedState(source: waiting.source, intervalSeconds: 30, condition: .waiting, timeZone: .current)
        let claim = live.claim(region: "tampere", states: [waitingState], lastGood: [:])
        XCTAssertEqual(try status().document.regions.first?.realtimeFeeds, [waiting])
        var applied = waiting, appliedState = waitingState
        applied.state = "live"
        applied.tripUpdatesApplied = 12
        appliedState.condition = .live
        appliedState.tripUpdatesApplied = 12
        live.post(region: "tampere", claim: claim, feeds: [], states: [appliedState], lastGood: [:])
        XCTAssertEqual(try status().document.regions.first?.realtimeFeeds, [applied])
        live.remove(region: "tampere")
        XCTAssertNil(try status().document.regions.first?.realtimeFeeds)
    }

    /// Issue 45: `status` from one cached encoding. Every answer is the whole document encoded
    /// afresh, byte for byte, across the changes of its kept parts (a realtime feed added, its
    /// state changed, removed; another day), while its per-request parts (the counters, the
    /// uptime, the id) move with every answer. A region imported or removed, which loads a
    /// timetable, is the daemon test below.
    func testEveryAnswerIsTheFreshWholeEncodingAcrossChangesAndItsCountersMove() throws {
        let methods: StatusMethods = composition.status
        var id: Int64 = 100
        func assertFresh(_ change: String) throws {
            id += 1
            clock.set(clock.now().addingTimeInterval(1)) // another uptime
            let answer = try methods.statusAnswer(id: .number(id), now: clock.now())
            let whole = try WireCodec.resultAnswer(id: .number(id), result: try methods.status(
                now: clock.now(), regions: try composition.regions.documents(onDate: nil, now: clock.now())))
            XCTAssertEqual(String(decoding: answer, as: UTF8.self), String(decoding: whole, as: UTF8.self), change)
        }
        try assertFresh("before any change")
        var state = RealtimeFeedState(source: "https://example.org/trips.pb", intervalSeconds: 30, condition: .waiting, timeZone: .current)
        let claim = live.claim(region: "tampere", states: [state], lastGood: [:])
        try assertFresh("a realtime feed added")
        state.condition = .live
        state.tripUpdatesApplied = 3
        live.post(region: "tampere", claim: claim, feeds: [], states: [state], lastGood: [:])
        try assertFresh("the feed's state changed")
        clock.set(clock.now().addingTimeInterval(2 * 3600))
        try assertFresh("another day in the region's zone")
        live.remove(region: "tampere")
        try assertFresh("the feed removed")

        let first = try status(id: 1).document
        clock.set(clock.now().addingTimeInterval(5))
        let second = try status(id: 2).document
        XCTAssertGreaterThan(second.counters.requests, first.counters.requests, "the request counter moves")
        XCTAssertEqual(second.uptimeS, first.uptimeS + 5, "the uptime moves")
        XCTAssertEqual(second.regions, first.regions)
    }
}

/// The same through a real daemon and its socket: a region imported or removed shows in the
/// very next `status`.
final class StatusRegionsPartThroughTheDaemonTests: DaemonTestCase {
    func testARegionImportedOrRemovedShowsInTheVeryNextStatus() async throws {
        let client = try harness.client()
        let before = try await client.call(Endpoints.status, Params.Empty()).regions
        XCTAssertEqual(before, [])
        let town = SmallRegion(name: "town", latitude: 60.1699, longitude: 24.9384)
        _ = try harness.importSmallRegions([(town, .init(zone: "Europe/Helsinki", fromStop: "East", toStop: "West",
                                                          departure: "09:00:00", minutes: 8, dates: ("20260301", "20260430")))])
        let imported = try await client.call(Endpoints.status, Params.Empty()).regions
        XCTAssertEqual(imported.map(\.name), ["town"])
        XCTAssertEqual(imported.first?.transitFeeds?.count, 1, "\(imported)")
        XCTAssertEqual(try harness.umctl(["region", "remove", "town"]).status, 0)
        let removed = try await client.call(Endpoints.status, Params.Empty()).regions
        XCTAssertEqual(removed, [])
    }
}
