import Foundation
import Transit
import WireProtocol
import XCTest

/// A region's realtime feeds are fetched together (issue 44): one that hangs until its timeout
/// holds back no other feed's update.
final class ConcurrentFeedPollsTests: LiveRegionTestCase {
    func testAFeedThatHangsDoesNotHoldBackTheUpdateOfAnotherFeedOfItsRegion() throws {
        let pinned = try live.pinnedPlan()
        try Data("never sent".utf8).write(to: live.feeds.appendingPathComponent("hanging.pb"))
        // Headers, then nothing: the fetch ends only at its 10 s timeout. Set first, so a poll
        // in turn would wait for it before fetching the other.
        let hanging = live.server.url("/stall/hanging.pb")
        let answering = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, delay: 360)]))
        let set = try harness.umctl(["region", "set", "tampere", "--realtime", hanging, "--realtime", answering])
        XCTAssertEqual(set.status, 0, set.stderr)

        _ = try live.eventually("the answering feed's delay reaches the plan") { () -> JSONValue? in
            let plan = try harness.json(["plan", "show", pinned.id])
            return live.segmentRide(plan, pinned.segment)?["delay_s"] == .number(360) ? plan : nil
        }
        // Ordered by events, not by time: the hanging fetch has not ended yet (no fetch, no failure).
        let feeds = try live.realtimeFeeds()
        let stalled = try XCTUnwrap(feeds.first { $0["source"]?.stringValue?.contains("/stall/") == true }, "\(feeds)")
        XCTAssertEqual(stalled["state"], .string("waiting"), "the hanging feed is still being fetched: \(feeds)")
        XCTAssertEqual(feeds.first { $0["source"]?.stringValue?.contains("/trips.pb") == true }?["state"], .string("live"), "\(feeds)")
    }
}
