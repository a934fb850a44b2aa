import Foundation
@testable import Daemon
import WireProtocol
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
        let good = try RealtimeSettings.validated(feeds: [RealtimeSource(url: "https://example.org/tu.pb"), RealtimeSource(url: "/srv/alerts.pb")],
                                                  intervalSeconds: nil)
        XCTAssertEqual(good.intervalSeconds, 30, "the default")
        for (feeds, interval, named) in [(["ftp://example.org/tu.pb"], 30, "ftp://"), (["file:///srv/tu.pb"], 30, "file://"),
                                         (["tu.pb"], 30, "absolute"), (["https://"], 30, "not a valid URL"),
                                         (["https://example.org/tu.pb"], 5, "10 to 86400"),
                                         (Array(repeating: "/srv/x.pb", count: 9), 30, "at most 8")] {
            XCTAssertThrowsError(try RealtimeSettings.validated(feeds: feeds.map { RealtimeSource(url: $0) }, intervalSeconds: interval)) { error in
                XCTAssertEqual((error as? DaemonError)?.code, "invalid_params")
                XCTAssertTrue("\(error)".contains(named), "\(error) names \(named)")
            }
        }
    }

    func testASecretInAFeedURLIsNeverInTheRefusal() {
        XCTAssertThrowsError(try RealtimeSettings.validated(feeds: [RealtimeSource(url: "ftp://user:hunter2@example.org/tu.pb?key=abc")],
                                                            intervalSeconds: nil)) {
            XCTAssertFalse("\($0)".contains("hunter2"), "\($0)")
            XCTAssertFalse("\($0)".contains("abc"), "\($0)")
        }
    }

    /// Issue 43: a feed tied to a GTFS feed is saved as an object; an untied one as the bare URL
    /// every file before ties held, so that old files still load and older daemons read new ones.
    func testSettingsFilesBeforeTiesStillLoadAndAnUntiedFeedIsStillSavedAsItsURL() throws {
        let old = #"{"tampere":{"feeds":["https://example.org/tu.pb","/srv/alerts.pb"],"intervalSeconds":30}}"#
        let loaded = try JSONDecoder().decode([String: RealtimeSettings].self, from: Data(old.utf8))
        XCTAssertEqual(loaded["tampere"]?.feeds, [RealtimeSource(url: "https://example.org/tu.pb"), RealtimeSource(url: "/srv/alerts.pb")])
        let tied = RealtimeSettings(feeds: [RealtimeSource(url: "https://example.org/tu.pb"),
                                            RealtimeSource(url: "https://example.org/south.pb", gtfsFeed: "south.zip")],
                                    intervalSeconds: 30)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let written = String(decoding: try encoder.encode(tied), as: UTF8.self)
        XCTAssertEqual(written, #"{"feeds":["https:\/\/example.org\/tu.pb",{"gtfs_feed":"south.zip","url":"https:\/\/example.org\/south.pb"}],"#
                       + #""intervalSeconds":30}"#)
        XCTAssertEqual(try JSONDecoder().decode(RealtimeSettings.self, from: Data(written.utf8)), tied)
    }

    func testARealtimeEntryIsTiedOnlyByANameBeforeItsURLNotByAQueryOrAPath() {
        XCTAssertEqual(RealtimeFeedEntry.split("south=https://rt.example/trips.pb").gtfsFeed, "south")
        XCTAssertEqual(RealtimeFeedEntry.split("south=https://rt.example/trips.pb").source, "https://rt.example/trips.pb")
        XCTAssertEqual(RealtimeFeedEntry.split("2=/srv/trips.pb").gtfsFeed, "2")
        for bare in ["https://rt.example/trips.pb?key=1", "/srv/a=b.pb", "=https://rt.example/x.pb"] {
            XCTAssertNil(RealtimeFeedEntry.split(bare).gtfsFeed, bare)
            XCTAssertEqual(RealtimeFeedEntry.split(bare).source, bare)
        }
    }
}
