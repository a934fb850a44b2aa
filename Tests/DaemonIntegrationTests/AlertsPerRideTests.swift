import Foundation
import HTTPTestSupport
import Transit
import WireProtocol
import XCTest

/// Alerts under a ride are a few lines, not a feed's every alert: the same notice from eight
/// feeds is one, and past the cap the rest are counted, so a feed of thousands of alerts on one
/// stop cannot make an answer through it hundreds of megabytes.
final class AlertsPerRideTests: LiveRegionTestCase {
    func testEightFeedsOfTheSameSixtyAlertsShowFiveDistinctOnesPerRideAndCountTheRest() throws {
        // Sixty alerts on every bus and tram (route types 0 and 3), one a no-service notice;
        // the same sixty in each of eight feeds, under other entity ids.
        func alerts(feed: Int) -> [RealtimeAlert] {
            (0..<60).map { k in
                RealtimeAlert(entityID: "f\(feed)-a\(k)", informedEntities: [RealtimeEntitySelector(routeType: 0),
                                                                           RealtimeEntitySelector(routeType: 3)],
                              effect: k == 59 ? "no_service" : "detour", header: [RealtimeTranslation(text: "Notice \(k)")])
            }
        }
        let urls = try (0..<8).map { feed in
            try live.serve(RealtimeFeed(timestamp: LiveRegion.start, alerts: alerts(feed: feed)), as: "alerts-\(feed).pb")
        }
        let set = try harness.umctl(["region", "set", "tampere"] + urls.flatMap { ["--realtime", $0] })
        XCTAssertEqual(set.status, 0, set.stderr)
        _ = try live.eventually("all eight feeds are live") {
            try live.realtimeFeeds().filter { $0["state"] == .string("live") }.count == 8 ? true : nil
        }
        let compare = try harness.json(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning])
        let transit = try XCTUnwrap(compare["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }, "\(compare)")
        let rides = try XCTUnwrap(transit["leg"]?["rides"]?.arrayValue ?? transit["rides"]?.arrayValue, "\(transit)")
        XCTAssertFalse(rides.isEmpty)
        for ride in rides {
            let shown = try XCTUnwrap(ride["alerts"]?.arrayValue)
            XCTAssertEqual(shown.count, 5, "at most five per ride: \(shown)")
            XCTAssertEqual(Set(shown.compactMap { $0["header"]?.stringValue }).count, 5, "each notice once")
            XCTAssertEqual(shown.first?["effect"], .string("no_service"), "a closure first")
            XCTAssertEqual(ride["alerts_omitted"], .number(55), "the other distinct notices are counted")
        }
        let text = try harness.umctl(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning])
        XCTAssertTrue(text.stdout.contains("and 55 more alerts"), text.stdout)
    }
}
