import Foundation
import WireProtocol
import XCTest

/// Issue 9: several regions are one world. Tampere and three small regions of other zones
/// (Asia/Tokyo, America/Sao_Paulo with a negative offset, Europe/Helsinki across a DST change)
/// in one daemon with no location set: names of each are found, plans are made inside each,
/// and every time printed or sent carries that region's offset.
final class SeveralRegionsTests: SharedTampereDaemonTestCase {
    private static let tokyo = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)
    private static let saopaulo = SmallRegion(name: "saopaulo", latitude: -23.5505, longitude: -46.6333)
    private static let helsinki = SmallRegion(name: "helsinki", latitude: 60.1699, longitude: 24.9384)

    /// One daemon for the class: Tampere copied in, the three small regions imported through umctl.
    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try super.makeSharedDaemon()
        let lines: [(SmallRegion, SmallRegion.Line)] = [
            (tokyo, .init(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square",
                               departure: "10:32:00", minutes: 8, dates: ("20260801", "20260831"))),
            (saopaulo, .init(zone: "America/Sao_Paulo", fromStop: "Praca da Se", toStop: "Liberdade Norte",
                                  departure: "08:02:00", minutes: 8, dates: ("20191001", "20191031"))),
            (helsinki, .init(zone: "Europe/Helsinki", fromStop: "Kamppi Testi", toStop: "Kallio Testi",
                                  departure: "09:00:00", minutes: 8, dates: ("20260320", "20260405"))),
        ]
        for ((region, line), report) in zip(lines, try harness.importSmallRegions(lines)) {
            // Thrown, not asserted: the class's tests all fail when it is not so.
            guard report.contains("time zone \(line.zone): agency_timezone of GTFS feed \(region.name).zip") else {
                throw HarnessError("import of \(region.name) did not name its zone: \(report)")
            }
        }
        return harness
    }

    /// Every ISO 8601 instant anywhere in `value`.
    private func instants(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text): return text.count >= 20 && WireTime.date(from: text) != nil ? [text] : []
        case .array(let items): return items.flatMap(instants)
        case .object(let fields): return fields.values.flatMap(instants)
        default: return []
        }
    }

    private func transitPlan(_ harness: DaemonHarness, _ from: String, _ to: String, at: String,
                             file: StaticString = #filePath, line: UInt = #line) throws -> (plan: JSONValue, segment: Int, ride: JSONValue) {
        let plan = try harness.json(["plan", "new", from, to, "--mode", "transit", "--at", at], file: file, line: line)
        let segments = plan["segments"]?.arrayValue ?? []
        let index = try XCTUnwrap(segments.firstIndex { $0["leg"]?["rides"]?.arrayValue?.isEmpty == false },
                                  "a ride in \(plan)", file: file, line: line)
        return (plan, index + 1, try XCTUnwrap(segments[index]["leg"]?["rides"]?.arrayValue?.first))
    }

    func testTheWriteUpsTokyoExampleHoldsEndToEnd() throws {
        let harness = try harness
        let (plan, segment, ride) = try transitPlan(harness, "Kanda Gate", "Marunouchi Square", at: "2026-08-14T10:30")
        XCTAssertEqual(plan["time_preference"]?["time"]?.stringValue, "2026-08-14T10:30:00+09:00", "--at is read as JST")
        XCTAssertEqual(ride["departure"]?.stringValue, "2026-08-14T10:32:00+09:00")
        XCTAssertEqual(plan["time_zone"]?.stringValue, "Asia/Tokyo")
        for instant in instants(in: plan) { XCTAssertTrue(instant.hasSuffix("+09:00"), instant) }
        let id = String(Int(plan["id"]?.numberValue ?? 0))
        let link = try harness.json(["plan", "link", id, String(segment)])
        XCTAssertTrue(link["url"]?.stringValue?.contains("!8j1786703520") ?? false, "\(link)")
        let shown = try harness.umctl(["plan", "show", id]).stdout
        XCTAssertTrue(shown.contains("times in Asia/Tokyo"), shown)
        XCTAssertTrue(shown.contains("10:32"), shown)
        XCTAssertFalse(shown.contains("~") || shown.contains("about every"), "a scheduled ride is no estimate: \(shown)")
    }

    func testSaoPauloTimesCarryTheNegativeOffset() throws {
        let harness = try harness
        let (plan, segment, ride) = try transitPlan(harness, "Praca da Se", "Liberdade Norte", at: "2019-10-02T08:00")
        XCTAssertEqual(ride["departure"]?.stringValue, "2019-10-02T08:02:00-03:00", "08:02 local, not 08:02 UTC")
        for instant in instants(in: plan) { XCTAssertTrue(instant.hasSuffix("-03:00"), instant) }
        let id = String(Int(plan["id"]?.numberValue ?? 0))
        // 08:02 local re-read as UTC: 2019-10-02T08:02Z = 1570003320.
        XCTAssertTrue(try harness.json(["plan", "link", id, String(segment)])["url"]?.stringValue?.contains("!8j1570003320") ?? false)
        let compare = try harness.umctl(["compare", "Praca da Se", "Liberdade Norte", "--at", "2019-10-02T08:00"])
        XCTAssertTrue(compare.stdout.contains("times in America/Sao_Paulo"), compare.stdout)
        XCTAssertFalse(compare.stdout.contains("GMT") || compare.stdout.contains("UTC"), compare.stdout)
    }

    func testHelsinkiTimesFollowTheDaylightSavingChange() throws {
        let harness = try harness
        let before = try transitPlan(harness, "Kamppi Testi", "Kallio Testi", at: "2026-03-28T08:55").ride
        let after = try transitPlan(harness, "Kamppi Testi", "Kallio Testi", at: "2026-03-30T08:55").ride
        XCTAssertEqual(before["departure"]?.stringValue, "2026-03-28T09:00:00+02:00")
        XCTAssertEqual(after["departure"]?.stringValue, "2026-03-30T09:00:00+03:00")
    }

    func testNamesOfEveryRegionAreFoundWithoutALocationAndTheReadmeExampleWorks() throws {
        let harness = try harness
        let readme = try harness.umctl(["compare", "Keskustori", "Tampere-talo", "--at", "2022-01-12T08:00"])
        XCTAssertEqual(readme.status, 0, readme.stderr)
        XCTAssertTrue(readme.stdout.contains("times in Europe/Helsinki"), readme.stdout)
        let compare = try harness.json(["compare", "Keskustori", "Tampere-talo", "--at", "2022-01-12T08:00"])
        for instant in instants(in: compare) { XCTAssertTrue(instant.hasSuffix("+02:00"), instant) }

        for (text, region) in [("Kanda Gate", "tokyo"), ("Liberdade Norte", "saopaulo"), ("Kallio Testi", "helsinki"),
                               ("Keskustori", "tampere")] {
            let first = try harness.json(["search", text])["results"]?.arrayValue?.first
            XCTAssertEqual(first?["region"]?.stringValue, region, text)
        }
        // --near puts its region first; --region searches only there.
        XCTAssertEqual(try harness.json(["search", "Street 1", "--near", "Kanda Gate"])["results"]?.arrayValue?.first?["region"]?
            .stringValue, "tokyo")
        XCTAssertEqual(try harness.json(["search", "Street 1", "--region", "saopaulo"])["results"]?.arrayValue?
            .compactMap { $0["region"]?.stringValue }.allSatisfy { $0 == "saopaulo" }, true)
        let elsewhere = try harness.umctl(["compare", "Keskustori", "Tampere-talo", "--region", "tokyo"])
        XCTAssertNotEqual(elsewhere.status, 0)
        XCTAssertTrue(elsewhere.stderr.contains("in region tokyo"), elsewhere.stderr)

        // With a location in Tampere, a stop of another region is still found.
        XCTAssertEqual(try harness.umctl(["location", "set", Tampere.keskustori]).status, 0)
        XCTAssertEqual(try harness.json(["search", "Kamppi Testi"])["results"]?.arrayValue?.first?["region"]?.stringValue, "helsinki")
    }

    func testATripBetweenTwoRegionsIsRefusedNamingBoth() throws {
        let harness = try harness
        let result = try harness.umctl(["compare", "Keskustori", "Kanda Gate"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("region tampere") && result.stderr.contains("region tokyo"), result.stderr)
    }

    func testAPlaceFromAnotherRegionIsRefusedAsAViaAnInsertedOrAMovedStopNamingItsRegionAndNothingIsStored() throws {
        let harness = try harness
        let plansBefore = try harness.json(["plan", "list"])["plans"]?.arrayValue?.count
        let via = try harness.umctl(["plan", "new", "Keskustori", "Kanda Gate", "Hervanta", "--mode", "walk"])
        XCTAssertEqual(via.status, 1, via.stderr)
        XCTAssertTrue(via.stderr.contains("no single region has every place: "), via.stderr)
        XCTAssertTrue(via.stderr.contains("in region tampere: \"Keskustori\" → Keskustori, no match for \"Kanda Gate\", \"Hervanta\" → Hervanta"),
                      via.stderr)
        XCTAssertTrue(via.stderr.contains("in region tokyo: no match for \"Keskustori\", \"Kanda Gate\" → Kanda Gate"), via.stderr)
        XCTAssertFalse(via.stderr.contains("in region helsinki"), "regions with no match are left out: \(via.stderr)")
        XCTAssertEqual(try harness.json(["plan", "list"])["plans"]?.arrayValue?.count, plansBefore, "no plan stored")

        let plan = try harness.json(["plan", "new", "Keskustori", "Ratina", "Hervanta", "--mode", "walk", "--at", "2022-01-12T08:00"])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        XCTAssertEqual(plan["nodes"]?.arrayValue?.count, 3)
        let searches = try harness.json(["history", "searches"])["entries"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        XCTAssertTrue(searches.contains("Ratina"), "a via typed as text is a search too: \(searches)")
        let insert = try harness.umctl(["plan", "insert", id, "Praca da Se", "--after", "1"])
        XCTAssertEqual(insert.status, 1, insert.stderr)
        XCTAssertTrue(insert.stderr.contains("Praca da Se is in region saopaulo"), insert.stderr)
        let moved = try harness.umctl(["plan", "move", id, "2", "Praca da Se"])
        XCTAssertEqual(moved.status, 1, moved.stderr)
        XCTAssertTrue(moved.stderr.contains("Praca da Se is in region saopaulo"), "a move stays in one region too: \(moved.stderr)")
        let shown = try harness.json(["plan", "show", id])
        XCTAssertEqual(shown["nodes"]?.arrayValue?.count, 3, "the plan is as it was")
        XCTAssertEqual(shown["generation"], plan["generation"])
    }

    func testTheTamperePairThatAnsweredNoRouteByCarNowRoutesBothWays() throws {
        let harness = try harness
        for (from, to) in [("Keskustori", "61.50042,23.77262"), ("61.50042,23.77262", "Keskustori")] {
            let compare = try harness.json(["compare", from, to, "--at", "2022-01-12T08:00"])
            let car = try XCTUnwrap(compare["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "car" })
            XCTAssertTrue(car["error"]?.isNull ?? true, "\(from) → \(to): \(car)")
            XCTAssertGreaterThan(car["duration_s"]?.numberValue ?? 0, 0)
        }
    }
}
