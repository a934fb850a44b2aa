import Foundation
import WireProtocol
import XCTest

/// Issue 28 item 8: a region's edges are one truth. Search offers only places that routing can
/// reach, and a date outside the feed's days is `outside_service_period` however the feed lists
/// its days. Small synthetic regions, so the feed can reach past the map on purpose.
final class RegionEdgesTests: XCTestCase {
    private let region = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)

    private func line(calendarDatesOnly: Bool = false, farStop: (name: String, metres: Double)? = nil) -> SmallRegion.Line {
        SmallRegion.Line(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square", departure: "10:32:00",
                         minutes: 8, dates: ("20260801", "20260831"), calendarDatesOnly: calendarDatesOnly, farStop: farStop)
    }

    private func importRegion(_ harness: DaemonHarness, _ line: SmallRegion.Line) throws -> DaemonHarness.CommandResult {
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeFeed(line, in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        return imported
    }

    private func searchNames(_ harness: DaemonHarness, _ text: String) throws -> [String] {
        try harness.json(["search", text, "--kind", "stop"])["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }

    func testStopsOfAFeedReachingPastTheStreetMapAreLeftOutOfSearchAndCountedAtImport() throws {
        let harness = try startDaemon()
        let imported = try importRegion(harness, line(farStop: ("Far Terminus", 5_000)))
        XCTAssertTrue(imported.stdout.contains(
            "note: 1 transit stop is farther than 1000 m from every street of the OpenStreetMap extract; search leaves them out"),
                      imported.stdout)

        XCTAssertEqual(try searchNames(harness, "Kanda"), ["Kanda Gate"], "a stop on the streets is found")
        XCTAssertEqual(try searchNames(harness, "Far Terminus"), [], "a stop 5 km past the last street is not offered")
        let far = SmallRegion.text(region.farPoint(metres: 5_000))
        let refused = try harness.umctl(["compare", region.southWest, far])
        XCTAssertNotEqual(refused.status, 0, "routing cannot reach it either: \(refused.stdout)")
    }

    func testADateOutsideACalendarDatesOnlyFeedIsOutsideTheServicePeriod() throws {
        let harness = try startDaemon()
        _ = try importRegion(harness, line(calendarDatesOnly: true))
        let feeds = try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["transit_feeds"]?.arrayValue?.first
        XCTAssertEqual(feeds?["first_date"], .string("2026-08-01"))
        XCTAssertEqual(feeds?["last_date"], .string("2026-08-31"))

        func transitError(at time: String) throws -> String? {
            let compared = try harness.json(["compare", region.southWest, region.northEast, "--at", time])
            let error = compared["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "transit" }?["error"]
            return error == .null ? nil : error?["data"]?["code"]?.stringValue ?? "\(String(describing: error))"
        }
        XCTAssertNil(try transitError(at: "2026-08-12T10:00"), "a day of the feed has its ride")
        XCTAssertNil(try transitError(at: "2026-08-31T10:00"), "so has its last day")
        // The day after the last is searched too (a last evening's trips may run past midnight),
        // but with nothing running then, it is outside the timetable, not "no route".
        XCTAssertEqual(try transitError(at: "2026-09-01T10:00"), "outside_service_period")
        XCTAssertEqual(try transitError(at: "2026-09-15T10:00"), "outside_service_period")
        XCTAssertEqual(try transitError(at: "2026-07-31T10:00"), "outside_service_period")
    }
}
