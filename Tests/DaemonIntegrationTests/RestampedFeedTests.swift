import Foundation
import Glibc
import Transit
import WireProtocol
import XCTest

/// Trial 59 F6: a GTFS-Realtime producer stamps its header anew on every fetch. A feed whose
/// trip updates and alerts are the same is no change: no overlay is built and no plan refreshed
/// (every poll of an unchanged feed rebuilt the overlay and bumped every plan of the day, and with
/// 500 plans the refresh queue fell behind the feed), while the new stamp keeps the feed live.
final class RestampedFeedTests: LiveRegionTestCase {
    func testAFeedRestampedWithTheSameContentBuildsNoOverlayAndRefreshesNoPlan() throws {
        let pinned = try live.pinnedPlan()
        let update = try live.tripUpdate(pinned.ride, delay: 120)
        let url = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [update]))
        XCTAssertEqual(try harness.umctl(["region", "set", "tampere", "--realtime", url, "--realtime-interval", "10"]).status, 0)
        func built() throws -> Int { Int(try harness.json(["status"])["counters"]?["realtime_overlays_built"]?.numberValue ?? -1) }
        let first = try live.eventually("the feed is live") { try live.realtimeFeeds().first { $0["state"] == .string("live") } }
        let delayed = try live.eventually("the delay reaches the plan") { () -> JSONValue? in
            let plan = try harness.json(["plan", "show", pinned.id])
            return live.segmentRide(plan, pinned.segment)?["delay_s"] == .number(120) ? plan : nil
        }
        let builtBefore = try built()
        XCTAssertGreaterThan(builtBefore, 0)

        _ = try live.serve(RealtimeFeed(timestamp: LiveRegion.start.addingTimeInterval(10), tripUpdates: [update]))
        _ = try live.eventually("the restamped feed is fetched") { () -> Bool? in
            live.server.requests().filter { $0.path == "/trips.pb" && $0.status == 200 }.count >= 2 ? true : nil
        }
        let after = try live.eventually("the poll is recorded") {
            try live.realtimeFeeds().first { $0["last_fetch"] != first["last_fetch"] }
        }
        usleep(2_000_000)  // what a change would set going has run by now
        XCTAssertEqual(try built(), builtBefore, "no overlay built for the same content")
        XCTAssertEqual(after["last_change"], first["last_change"], "nothing changed: \(after)")
        XCTAssertEqual(after["state"], .string("live"), "still live: \(after)")
        let plan = try harness.json(["plan", "show", pinned.id])
        XCTAssertEqual(plan["generation"], delayed["generation"], "the plan is not refreshed again: \(plan)")
        XCTAssertEqual(live.segmentRide(plan, pinned.segment)?["delay_s"], .number(120), "the delay holds: \(plan)")
    }
}
