import Foundation
import HTTPTestSupport
import Transit
import WireProtocol
import XCTest

/// Realtime feeds that are broken, hostile or someone else's: each is refused by name in
/// `status`, nothing of it is applied half, and the daemon keeps answering meanwhile.
final class LiveFeedBadInputTests: LiveRegionTestCase {
    func set(_ url: String) throws {
        let result = try harness.umctl(["region", "set", "tampere", "--realtime", url])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// The feed's document once a fetch after `after` (its last fetch changed) has been made.
    func fetched(where condition: @escaping (JSONValue) -> Bool) throws -> JSONValue {
        try live.eventually("the feed reaches the state asked") { try live.realtimeFeeds().first(where: condition) }
    }

    func stillServes() throws {
        let compare = try harness.json(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning])
        XCTAssertEqual(compare["options"]?.arrayValue?.count, 4, "the daemon keeps answering")
    }

    func testGarbageAndTruncatedFeedsAreRefusedByNameAndTheLastGoodFeedStaysApplied() throws {
        let pinned = try live.pinnedPlan()
        let good = try live.serve(RealtimeFeed(timestamp: LiveRegion.start,
                                               tripUpdates: [try live.tripUpdate(pinned.ride, delay: 360)]))
        try set(good)
        _ = try fetched { $0["state"] == .string("live") }
        let encoded = try Data(contentsOf: live.feeds.appendingPathComponent("trips.pb"))
        for (name, bytes) in [("truncated", encoded.prefix(encoded.count / 2)), ("garbage", Data((0..<512).map { UInt8(($0 * 37) & 0xFF) }))] {
            try Data(bytes).write(to: live.feeds.appendingPathComponent("trips.pb"), options: .atomic)
            try set(good)
            let feed = try fetched { $0["error"]?.stringValue?.contains("realtime_feed_invalid") == true }
            XCTAssertEqual(feed["state"], .string("failing"), "\(name): \(feed)")
            let refreshed = try harness.json(["plan", "refresh", pinned.id])
            XCTAssertEqual(live.segmentRide(refreshed, pinned.segment)?["delay_s"], .number(360),
                           "\(name): the last good version stays applied")
            try stillServes()
            try Data(encoded).write(to: live.feeds.appendingPathComponent("trips.pb"), options: .atomic)
            try set(good)
            _ = try fetched { $0["state"] == .string("live") && $0["error"] == .null }
        }
    }

    func testFeedsSetInPlaceOfOthersClearTheOldOnesDelaysEvenWhenNoneOfTheNewCanBeFetched() throws {
        let pinned = try live.pinnedPlan()
        try set(try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, delay: 360)])))
        _ = try fetched { $0["state"] == .string("live") }
        XCTAssertEqual(live.segmentRide(try harness.json(["plan", "refresh", pinned.id]), pinned.segment)?["delay_s"], .number(360))
        try set(live.server.url("/status/404"))
        _ = try fetched { $0["error"]?.stringValue?.contains("fetch_http_status") == true }
        let refreshed = try harness.json(["plan", "refresh", pinned.id])
        XCTAssertEqual(live.segmentRide(refreshed, pinned.segment)?["realtime"], .bool(false), "the replaced feed's delay is gone")
    }

    func testAFeedThatStopsAnsweringStopsApplyingWhenItTurnsStaleNotAtItsNextPoll() throws {
        let pinned = try live.pinnedPlan()
        // Stamped 270 s behind the daemon's clock: stale in about 30 s, while the next poll is 10 min away.
        let uptime = try XCTUnwrap(harness.json(["status"])["uptime_s"]?.numberValue)
        let feed = RealtimeFeed(timestamp: LiveRegion.start.addingTimeInterval(uptime - 270),
                                tripUpdates: [try live.tripUpdate(pinned.ride, delay: 360)])
        let set = try harness.umctl(["region", "set", "tampere", "--realtime", try live.serve(feed, as: "dying.pb"),
                                     "--realtime-interval", "10m"])
        XCTAssertEqual(set.status, 0, set.stderr)
        _ = try fetched { $0["state"] == .string("live") }
        XCTAssertEqual(live.segmentRide(try harness.json(["plan", "refresh", pinned.id]), pinned.segment)?["delay_s"], .number(360))
        // The server fails from now on (404).
        try FileManager.default.removeItem(at: live.feeds.appendingPathComponent("dying.pb"))
        var state: JSONValue?
        for _ in 0..<1200 where state != .string("stale") {
            usleep(100_000)
            state = try live.realtimeFeeds().first?["state"]
        }
        XCTAssertEqual(state, .string("stale"), "stale once 5 min behind, without waiting for the next poll: \(harness.log.suffix(2000))")
        let refreshed = try harness.json(["plan", "refresh", pinned.id])
        XCTAssertEqual(live.segmentRide(refreshed, pinned.segment)?["realtime"], .bool(false), "the stale feed's delay is gone")
    }

    func testAnHTMLErrorPageWithStatus200IsRefusedAsNotAFeed() throws {
        try set(live.server.url("/html/trips.pb"))
        let feed = try fetched { $0["error"] != nil && $0["error"] != .null }
        XCTAssertTrue(feed["error"]?.stringValue?.contains("HTML") == true, "\(feed)")
        XCTAssertTrue(try harness.umctl(["status"]).stdout.contains("HTML"))
        try stillServes()
    }

    func testATripUpdateGoingBackwardsOrTenYearsOffIsRefusedWhole() throws {
        let pinned = try live.pinnedPlan()
        let trip = try XCTUnwrap(pinned.ride["trip_id"]?.stringValue)
        let from = try XCTUnwrap(pinned.ride["from_stop_id"]?.stringValue), to = try XCTUnwrap(pinned.ride["to_stop_id"]?.stringValue)
        let boards = Int64(try XCTUnwrap(WireTime.parse(try XCTUnwrap(pinned.ride["departure"]?.stringValue), timeZone: .current,
                                                         now: Date())).timeIntervalSince1970)
        let backwards = RealtimeTripUpdate(
            entityID: "backwards", trip: RealtimeTripDescriptor(tripID: trip, startDate: "20220112"),
            stopTimeUpdates: [RealtimeStopTimeUpdate(stopID: from, departure: RealtimeStopTimeEvent(time: boards + 300)),
                              RealtimeStopTimeUpdate(stopID: to, arrival: RealtimeStopTimeEvent(time: boards - 600))])
        var tenYears = backwards
        tenYears.entityID = "ten-years"
        tenYears.stopTimeUpdates = [RealtimeStopTimeUpdate(stopID: from, departure: RealtimeStopTimeEvent(time: boards + 10 * 365 * 86_400))]
        for (update, reason) in [(backwards, "times_backwards"), (tenYears, "times_out_of_range")] {
            try set(try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [update])))
            let feed = try fetched { $0["refused"]?[reason] != nil }
            XCTAssertEqual(feed["refused"]?[reason], .number(1), "\(feed)")
            XCTAssertEqual(feed["trip_updates_applied"], .number(0))
            let refreshed = try harness.json(["plan", "refresh", pinned.id])
            XCTAssertEqual(live.segmentRide(refreshed, pinned.segment)?["realtime"], .bool(false), "\(reason): nothing applied half")
        }
        try stillServes()
    }

    func testUnknownTripsAndStopsAreCountedByReason() throws {
        let pinned = try live.pinnedPlan()
        let trip = try XCTUnwrap(pinned.ride["trip_id"]?.stringValue)
        let unknownTrip = RealtimeTripUpdate(entityID: "a", trip: RealtimeTripDescriptor(tripID: "no-such-trip", startDate: "20220112"),
                                             delay: 60)
        let unknownStop = RealtimeTripUpdate(entityID: "b", trip: RealtimeTripDescriptor(tripID: trip, startDate: "20220112"),
                                             stopTimeUpdates: [RealtimeStopTimeUpdate(stopID: "no-such-stop",
                                                                                      departure: RealtimeStopTimeEvent(delay: 60))])
        try set(try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [unknownTrip, unknownStop])))
        let feed = try fetched { $0["refused"]?["unknown_trip"] != nil }
        XCTAssertEqual(feed["refused"]?["unknown_trip"], .number(1), "\(feed)")
        XCTAssertEqual(feed["refused"]?["unknown_stop"], .number(1), "\(feed)")
        XCTAssertTrue(try harness.umctl(["status"]).stdout.contains("unknown_trip 1"))
    }

    func testAHundredMegabyteResponseIsRefusedAtTheDocumentedLimit() throws {
        try set(live.server.url("/huge"))
        let feed = try fetched { $0["error"]?.stringValue?.contains("fetch_too_large") == true }
        XCTAssertEqual(feed["state"], .string("failing"))
        XCTAssertTrue(feed["error"]?.stringValue?.contains("\(RealtimeFeed.maximumBytes)") == true
                      || feed["error"]?.stringValue?.contains("32") == true, "the limit is named: \(feed)")
        try stillServes()
    }

    func testAServerThatNeverAnswersOrRedirectsInALoopOrToAnotherPortFailsWithoutStallingAnyRequest() throws {
        try Data("x".utf8).write(to: live.feeds.appendingPathComponent("x.pb"))
        try set(live.server.url("/stall/x.pb"))
        try stillServes()  // while the fetch waits on a server that never answers
        let stalled = try fetched { $0["error"] != nil && $0["error"] != .null }
        XCTAssertTrue(stalled["error"]?.stringValue?.hasPrefix("fetch_") == true, "\(stalled)")
        try set(live.server.url("/redirect-loop"))
        let looping = try fetched { $0["error"]?.stringValue?.contains("redirect") == true }
        XCTAssertEqual(looping["state"], .string("failing"), "\(looping)")
        // Issue 44: another port is another host; the feed's operator cannot point the daemon there.
        let other = try LocalHTTPServer(directory: live.feeds)
        defer { other.stop() }
        try set(live.server.url("/redirect-port/\(other.port)/x.pb"))
        let elsewhere = try fetched { $0["error"]?.stringValue?.contains("fetch_cross_host_redirect") == true }
        XCTAssertTrue(elsewhere["error"]?.stringValue?.contains(other.url("x.pb")) == true, "the target is named: \(elsewhere)")
        XCTAssertTrue(other.requests().isEmpty, "the other port is never asked")
        try stillServes()
    }

    func testAFeedForAnotherRegionsAgencyAppliesNothingAndSaysSo() throws {
        let elsewhere = RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: (1...3).map {
            RealtimeTripUpdate(entityID: "mta-\($0)", trip: RealtimeTripDescriptor(tripID: "MTA_NYCT_\($0)", startDate: "20220112"),
                               delay: 120)
        }, alerts: [RealtimeAlert(entityID: "mta-alert", informedEntities: [RealtimeEntitySelector(agencyID: "MTA NYCT")],
                                  header: [RealtimeTranslation(text: "Delays on the 6")])])
        try set(try live.serve(elsewhere))
        let feed = try fetched { $0["refused"]?["unknown_trip"] != nil }
        XCTAssertEqual(feed["trip_updates_applied"], .number(0))
        XCTAssertEqual(feed["refused"]?["unknown_trip"], .number(3), "\(feed)")
        XCTAssertEqual(feed["refused"]?["alert_unknown_entity"], .number(1), "\(feed)")
        try stillServes()
    }
}
