import Foundation
import HTTPTestSupport
import Transit
import WireProtocol
import XCTest

/// Issue 44: a realtime feed whose URL redirects to another host or port is refused unless the
/// daemon runs with `--allow-cross-host-redirects` (the refusal: `LiveFeedBadInputTests`); with
/// it, the redirect is followed and the feed applied.
final class LiveFeedRedirectTests: LiveRegionTestCase {
    func testWithTheOptionAFeedRedirectingToAnotherPortIsFollowedAndItsDelayReachesThePlan() throws {
        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start(extraArguments: ["--clock-start", LiveRegion.clockStart, "--allow-cross-host-redirects"])
        let pinned = try live.pinnedPlan()
        _ = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, delay: 360)]))
        let other = try LocalHTTPServer(directory: live.feeds)
        defer { other.stop() }
        let set = try harness.umctl(["region", "set", "tampere", "--realtime", live.server.url("/redirect-port/\(other.port)/trips.pb")])
        XCTAssertEqual(set.status, 0, set.stderr)

        let feed = try live.eventually("the redirected feed is live") { try live.realtimeFeeds().first { $0["state"] == .string("live") } }
        XCTAssertEqual(feed["trip_updates_applied"], .number(1), "\(feed)")
        XCTAssertEqual(other.requests().map(\.path), ["/trips.pb"], "fetched from the port redirected to")
        let plan = try live.eventually("the plan follows the delay") { () -> JSONValue? in
            let plan = try harness.json(["plan", "show", pinned.id])
            return live.segmentRide(plan, pinned.segment)?["delay_s"] == .number(360) ? plan : nil
        }
        XCTAssertEqual(live.segmentRide(plan, pinned.segment)?["realtime"], .bool(true))
    }
}
