import Foundation
import HTTPTestSupport
import TestSupport
import Transit
import WireProtocol
import XCTest

/// The three feeds that once killed the daemon (issue 44), each served over HTTP from 127.0.0.1
/// and given as a file: refused by name in `status`, the daemon answering meanwhile, and again
/// after a restart (the feed stays set, so a crash would have been a crash loop).
final class HostileRealtimeFeedTests: LiveRegionTestCase {
    /// Trip 3075, stop_sequence 2, departure time -2^63 (the 58 bytes).
    static let stopTimeOfMinusTwoToThe63 = hex("0a0d0a03322e30100018d0c0f98e0612290a0264341a230a100a04333037351a083230323230313132120f08021a0b1080808080808080808001")
    /// Header timestamp 2^64-1 (the second feed; anything from 2^63 trapped).
    static let headerTimestampOfTwoToThe64 = hex("0a120a03322e30100018ffffffffffffffffff0112200a0265311a1a0a100a04333037351a083230323230313132120608031a02083c")

    /// An alert on every bus and tram (route types 0 and 3) whose active period ends at 2^64-1.
    static var alertEndingAtTwoToThe64: Data {
        typealias M = ProtobufMessage
        return M([
            M.message(1, [M.string(1, "2.0"), M.varint(3, UInt64(LiveRegion.start.timeIntervalSince1970))]),
            M.message(2, [M.string(1, "forever"),
                          M.message(5, [M.message(1, [M.varint(1, 1_641_960_000), M.varint(2, .max)]),
                                        M.message(5, [M.varint(3, 0)]), M.message(5, [M.varint(3, 3)]),
                                        M.message(10, [M.message(1, [M.string(1, "Works everywhere")])])])]),
        ]).encoded
    }

    static func hex(_ text: String) -> Data {
        Data(stride(from: 0, to: text.count, by: 2).map { offset in
            let start = text.index(text.startIndex, offsetBy: offset)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        })
    }

    func testAStopTimeOfMinusTwoToThe63IsRefusedByNameAndTheDaemonLivesOnAndAfterARestart() throws {
        try assertRefusedAndSurvived(Self.stopTimeOfMinusTwoToThe63, naming: "entity[0].trip_update.stop_time_update[0].departure.time")
    }

    func testAHeaderTimestampOfTwoToThe64MinusOneIsRefusedByNameAndTheDaemonLivesOnAndAfterARestart() throws {
        try assertRefusedAndSurvived(Self.headerTimestampOfTwoToThe64, naming: "header.timestamp")
    }

    func testAnAlertEndingAtTwoToThe64MinusOneIsRefusedByNameAndPlansThroughItsRidesStillAnswer() throws {
        try assertRefusedAndSurvived(Self.alertEndingAtTwoToThe64, naming: "entity[0].alert.active_period[0].end")
    }

    func testAFeedStampedTenYearsAheadIsFutureNotLiveAndAppliesNothing() throws {
        let pinned = try live.pinnedPlan()
        let ahead = LiveRegion.start.addingTimeInterval(10 * 365 * 86_400)
        let url = try live.serve(RealtimeFeed(timestamp: ahead, tripUpdates: [try live.tripUpdate(pinned.ride, delay: 360)]))
        let set = try harness.umctl(["region", "set", "tampere", "--realtime", url])
        XCTAssertEqual(set.status, 0, set.stderr)
        let feed = try live.eventually("the feed is fetched") { try live.realtimeFeeds().first { $0["last_fetch"] != .null } }
        XCTAssertEqual(feed["state"], .string("future"), "\(feed)")
        let refreshed = try harness.json(["plan", "refresh", pinned.id])
        XCTAssertEqual(live.segmentRide(refreshed, pinned.segment)?["realtime"], .bool(false), "nothing of it applied")
        let status = try harness.umctl(["status"]).stdout
        XCTAssertTrue(status.contains("future") && status.contains("+3650d"), "status shows the date is far off: \(status)")
    }

    // MARK: - Helpers

    /// Serves `body` over HTTP, then as a file; each time: refused naming `field`, compare and
    /// plan.new answer, and after a restart (the feed still set) the same.
    private func assertRefusedAndSurvived(_ body: Data, naming field: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let name = "hostile-\(UUID().uuidString.prefix(6)).pb"
        try body.write(to: live.feeds.appendingPathComponent(name))
        for source in [live.server.url("/\(name)"), live.feeds.appendingPathComponent(name).path] {
            let set = try harness.umctl(["region", "set", "tampere", "--realtime", source])
            XCTAssertEqual(set.status, 0, set.stderr, file: file, line: line)
            for restarted in [false, true] {
                if restarted {
                    XCTAssertEqual(harness.stop(), 0, harness.log, file: file, line: line)
                    try harness.start(extraArguments: ["--clock-start", LiveRegion.clockStart])
                }
                let feed = try live.eventually("\(source) is refused", file: file, line: line) {
                    try live.realtimeFeeds().first { $0["error"]?.stringValue?.contains(field) == true }
                }
                XCTAssertEqual(feed["state"], .string("failing"), "\(feed)", file: file, line: line)
                XCTAssertTrue(feed["error"]?.stringValue?.contains("realtime_feed_invalid") == true, "\(feed)", file: file, line: line)
                let compare = try harness.json(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning])
                XCTAssertEqual(compare["options"]?.arrayValue?.count, 4, "restarted \(restarted): \(compare)", file: file, line: line)
                let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
                XCTAssertNotNil(plan["id"], "\(plan)", file: file, line: line)
                XCTAssertTrue(try harness.umctl(["status"]).stdout.contains(field), "status names the field", file: file, line: line)
            }
        }
    }
}
