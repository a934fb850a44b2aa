import Foundation
import WireProtocol
import XCTest

/// Issue 28 item 4: messages give the numbers. A missed connection names both times and the gap
/// (in seconds when the minutes are equal), and a pending update shows the old and the new
/// departure, arrival and duration. A small region whose one line leaves at 10:32:30 and every
/// half hour after, so the walk to it can be timed to miss it by seconds.
final class MessageNumbersTests: XCTestCase {
    private let region = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)

    /// `HH:MM` of a wire instant.
    private func clock(_ value: JSONValue?) -> String { value?.stringValue.map { String($0.dropFirst(11).prefix(5)) } ?? "?" }

    /// `HH:MM:SS` of a wire instant.
    private func seconds(_ iso: String?) -> String { iso.map { String($0.dropFirst(11).prefix(8)) } ?? "?" }

    func testAConnectionMissedWithinTheMinuteShowsBothTimesInSecondsAndTheGapAndThePendingUpdateItsTimes() throws {
        let harness = try startDaemon()
        let line = SmallRegion.Line(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square",
                                    departure: "10:32:30", minutes: 8, dates: ("20260801", "20260831"),
                                    frequency: (seconds: 1_800, until: "12:00:00", exactTimes: true))
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeFeed(line, in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let start = SmallRegion.text(region.point(row: 0, column: 4))  // 400 m east of the line's first stop

        // How long the walk to the stop takes, to get there at 10:32:50, just too late for the 10:32:30: the plan
        // leaves ten minutes before that, the 10:32 is pinned, then a ten-minute stay at the start.
        let timing = try harness.json(["plan", "new", start, region.southWest, "--mode", "walk", "--at", "2026-08-12T09:00"])
        let walk = try XCTUnwrap(timing["segments"]?.arrayValue?.first?["leg"]?["duration_s"]?.numberValue)
        let leave = Date(timeIntervalSince1970: 1_786_498_370 - walk.rounded() - 600)  // 2026-08-12T10:32:50+09:00 minus both
        let at = WireTime.string(from: leave, timeZone: try XCTUnwrap(TimeZone(identifier: "Asia/Tokyo")))
        let created = try harness.json(["plan", "new", start, region.southWest, region.northEast, "--at", String(at.prefix(19))])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        _ = try harness.json(["plan", "mode", id, "1", "walk"])
        _ = try harness.json(["plan", "mode", id, "2", "transit"])
        let pinned = try harness.json(["plan", "pin", id, "2", "2026-08-12T10:32"])
        let ride = pinned["segments"]?.arrayValue?[1]["leg"]?["rides"]?.arrayValue?.first
        XCTAssertEqual(ride?["departure"]?.stringValue.map(seconds), "10:32:30", "\(pinned)")
        let plan = try harness.json(["plan", "stay", id, "1", "10"])

        let segment = try XCTUnwrap(plan["segments"]?.arrayValue?[1])
        XCTAssertEqual(segment["missed_connection"], .bool(true), "\(plan)")
        let departure = try XCTUnwrap(segment["leg"]?["departure"]?.stringValue)
        let there = try XCTUnwrap(plan["nodes"]?.arrayValue?[1]["time"]?.stringValue)
        XCTAssertEqual(String(departure.dropFirst(11).prefix(5)), "10:32", departure)
        XCTAssertEqual(String(there.dropFirst(11).prefix(5)), "10:32", "the walk gets there in the same minute: \(there)")
        let gap = Int(try XCTUnwrap(WireTime.date(from: there)).timeIntervalSince(try XCTUnwrap(WireTime.date(from: departure))))
        XCTAssertTrue((1...59).contains(gap), "\(gap)")

        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("missed: it leaves \(seconds(departure)) but you get there at \(seconds(there)), \(gap) s too late"),
                      shown.stdout)

        // The next one you can catch is proposed: the pending update gives both journeys' times.
        let pending = try XCTUnwrap(plan["pending"]?.arrayValue?.first, "\(plan)")
        let latest = try XCTUnwrap(pending["latest"])
        let selected = try XCTUnwrap(pending["selected"])
        XCTAssertEqual(latest["rides"]?.arrayValue?.first?["departure"]?.stringValue.map(seconds), "11:02:30", "\(latest)")
        // A ride leaves when it leaves its stop, as its pin does (docs/planner.md "What a pin's time means").
        func side(_ leg: JSONValue) -> String {
            let ride = leg["rides"]?.arrayValue?.first
            let duration = ShownTime.text(from: ride?["departure"]?.stringValue, to: leg["arrival"]?.stringValue) ?? "?"
            return "leaves \(clock(ride?["departure"])), arrives \(clock(leg["arrival"])) (\(duration))"
        }
        func named(_ leg: JSONValue) -> String {
            let ride = leg["rides"]?.arrayValue?.first
            return "\(ride?["vehicle"]?.stringValue ?? "?") \(ride?["line"]?.stringValue ?? "?") \(side(leg))"
        }
        XCTAssertEqual(side(selected), "leaves 10:32, arrives 10:40 (8 min)")
        XCTAssertEqual(side(latest), "leaves 11:02, arrives 11:10 (8 min)")
        XCTAssertTrue(shown.stdout.contains("pending on segment 2: selected \(named(selected)) → proposed \(named(latest))"), shown.stdout)

        // The same ten minutes spent at the stop instead: the ride is missed by leaving too late.
        _ = try harness.json(["plan", "stay", id, "1", "--clear"])
        let waiting = try harness.json(["plan", "stay", id, "2", "10"])
        XCTAssertEqual(waiting["segments"]?.arrayValue?[1]["missed_connection"], .bool(true), "\(waiting)")
        let leaves = try XCTUnwrap(waiting["nodes"]?.arrayValue?[1]["departure"]?.stringValue, "\(waiting)")
        let late = Int(try XCTUnwrap(WireTime.date(from: leaves)).timeIntervalSince(try XCTUnwrap(WireTime.date(from: departure))))
        let again = try harness.umctl(["plan", "show", id])
        XCTAssertTrue(again.stdout.contains("missed: it leaves \(seconds(departure)) but you can leave at \(seconds(leaves)), \(late) s too late"),
                      again.stdout)
    }
}
