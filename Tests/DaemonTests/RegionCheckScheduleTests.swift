@testable import Daemon
import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 22: when the daemon checks its regions again (`update_interval`, backoff after a
/// failure, the schedule kept across a restart), on `RegionCheckLog` and the configuration.
final class RegionCheckScheduleTests: XCTestCase {
    func testTheUpdateIntervalIsReadAsADurationOrNever() throws {
        let home = ["HOME": "/nonexistent-home"]
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: [], environment: home).updateInterval, 86_400, "daily by default")
        XCTAssertNil(try DaemonConfiguration.resolve(arguments: ["--update-interval", "never"], environment: home).updateInterval)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: ["--update-interval", "6h"], environment: home).updateInterval, 21_600)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: [], environment: home.merging(["USEFULMAP_UPDATE_INTERVAL": "30m"]) { $1 })
            .updateInterval, 1_800)
        XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--update-interval", "soon"], environment: home))
    }

    /// After failures the next check comes 1, 2, 4… minutes later, never later than the interval.
    func testAFailedCheckIsRetriedWithBackoffUpToTheInterval() {
        let log = RegionCheckLog(interval: 3_600)
        let now = Date(timeIntervalSince1970: 1_000_000)
        let failed = RegionUpdateResult(name: "town", rebuilt: "nothing", sources: [], error: WireError(code: "fetch_http_status", message: "404"))
        var waits: [TimeInterval] = []
        for _ in 0..<8 {
            log.record(failed, at: now)
            XCTAssertFalse(log.isDue("town", at: now))
            waits.append((log.nextCheck(of: ["town"], after: now) ?? now).timeIntervalSince(now))
        }
        XCTAssertEqual(waits, [60, 120, 240, 480, 960, 1_920, 3_600, 3_600])
        log.record(RegionUpdateResult(name: "town", rebuilt: "nothing", sources: []), at: now)
        XCTAssertEqual(log.nextCheck(of: ["town"], after: now)?.timeIntervalSince(now), 3_600, "a success waits the interval")
        XCTAssertTrue(log.isDue("never-checked", at: now))
    }

    func testAKeptCheckIsDueNoLaterThanTheIntervalOfTheNextStart() throws {
        let temporary = try TemporaryDirectory("checks")
        defer { temporary.remove() }
        let directory = temporary.url
        let now = Date(timeIntervalSince1970: 1_000_000)
        RegionCheckLog(interval: 86_400, dataDirectory: directory).record(RegionUpdateResult(name: "town", rebuilt: "nothing", sources: []),
                                                                          at: now)
        let sameInterval = RegionCheckLog(interval: 86_400, dataDirectory: directory)
        XCTAssertEqual(sameInterval.nextCheck(of: ["town"], after: now)?.timeIntervalSince(now), 86_400, "kept across the restart")
        let shorter = RegionCheckLog(interval: 3_600, dataDirectory: directory)
        XCTAssertEqual(shorter.nextCheck(of: ["town"], after: now)?.timeIntervalSince(now), 3_600, "an hour now, not a day")
        let never = RegionCheckLog(interval: nil, dataDirectory: directory)
        XCTAssertNotNil(never.document(of: "town"))
        XCTAssertNil(never.document(of: "town")?.nextCheck, "no schedule, no next check")
    }

    /// Issue 45: the log keeps a failure as its word and message, not as a wire error; a file an
    /// older daemon wrote in the wire's shape (a number, the word in `data.code`) is still read,
    /// and `region.list` shows the failure as before, also after it is written again.
    func testAFailedCheckKeptInTheWiresShapeIsStillRead() throws {
        let temporary = try TemporaryDirectory("checks")
        defer { temporary.remove() }
        let file = temporary.url.appendingPathComponent(RegionCheckLog.fileName)
        try Data((#"{"town":{"at":0,"rebuilt":"nothing","failures":2,"next":60,"#
                  + #""error":{"code":-32000,"message":"the server answered HTTP 404","data":{"code":"fetch_http_status"}}}}"#).utf8)
            .write(to: file)
        let expected = WireError(code: "fetch_http_status", message: "the server answered HTTP 404")
        let older = RegionCheckLog(interval: 3_600, dataDirectory: temporary.url)
        XCTAssertEqual(older.document(of: "town")?.error, expected)
        XCTAssertEqual(older.document(of: "town")?.failures, 2)
        older.record(RegionUpdateResult(name: "town", rebuilt: "nothing", sources: [], error: expected), at: Date(timeIntervalSinceReferenceDate: 120))
        let again = RegionCheckLog(interval: 3_600, dataDirectory: temporary.url)
        XCTAssertEqual(again.document(of: "town")?.error, expected)
        XCTAssertEqual(again.document(of: "town")?.failures, 3)
    }
}
