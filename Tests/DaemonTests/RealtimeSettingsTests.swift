import Foundation
@testable import Daemon
import XCTest

/// What `region set --realtime` accepts, and how the polls back off: rules without a daemon.
final class RealtimeSettingsTests: XCTestCase {
    func testPollsBackOffByDoublingAfterEachFailingRoundUpToTenMinutes() {
        XCTAssertEqual(RealtimePoller.pause(interval: 30, failingRounds: 0), 30)
        XCTAssertEqual(RealtimePoller.pause(interval: 30, failingRounds: 1), 60)
        XCTAssertEqual(RealtimePoller.pause(interval: 30, failingRounds: 3), 240)
        XCTAssertEqual(RealtimePoller.pause(interval: 30, failingRounds: 5), 600)
        XCTAssertEqual(RealtimePoller.pause(interval: 30, failingRounds: 500), 600, "never past ten minutes")
        XCTAssertEqual(RealtimePoller.pause(interval: 3600, failingRounds: 2), 3600, "never sooner than the interval")
    }

    func testFeedsMustBeHTTPURLsOrAbsolutePathsAndTheIntervalAtLeastTenSeconds() throws {
        let good = try RealtimeSettings.validated(feeds: ["https://example.org/tu.pb", "/srv/alerts.pb"], intervalSeconds: nil)
        XCTAssertEqual(good.intervalSeconds, 30, "the default")
        for (feeds, interval, named) in [(["ftp://example.org/tu.pb"], 30, "ftp://"), (["file:///srv/tu.pb"], 30, "file://"),
                                         (["tu.pb"], 30, "absolute"), (["https://"], 30, "not a valid URL"),
                                         (["https://example.org/tu.pb"], 5, "10 to 86400"),
                                         (Array(repeating: "/srv/x.pb", count: 9), 30, "at most 8")] {
            XCTAssertThrowsError(try RealtimeSettings.validated(feeds: feeds, intervalSeconds: interval)) { error in
                XCTAssertEqual((error as? DaemonError)?.code, "invalid_params")
                XCTAssertTrue("\(error)".contains(named), "\(error) names \(named)")
            }
        }
    }

    func testASecretInAFeedURLIsNeverInTheRefusal() {
        XCTAssertThrowsError(try RealtimeSettings.validated(feeds: ["ftp://user:hunter2@example.org/tu.pb?key=abc"], intervalSeconds: nil)) {
            XCTAssertFalse("\($0)".contains("hunter2"), "\($0)")
            XCTAssertFalse("\($0)".contains("abc"), "\($0)")
        }
    }
}
