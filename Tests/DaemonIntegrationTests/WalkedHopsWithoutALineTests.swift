import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 39 item 3 on a small written region whose one line runs from the south-west corner to
/// the north-east one, never back: a day by transit walks the hop no line serves instead of
/// failing it (`no_route`, exit 4), and what a segment says (why it is walked, why it has no
/// leg) is stored with the plan, so `plan show` says the same after a restart.
final class WalkedHopsWithoutALineTests: XCTestCase {
    static let region = SmallRegion(name: "joensuu", latitude: 62.6010, longitude: 29.7636)

    func testADayByTransitWalksTheHopNoLineServesAndWhatTheSegmentsSaySurvivesARestart() throws {
        let region = Self.region
        let harness = try startDaemon()
        // Line 7 leaves the south-west corner at 08:00 and is at the north-east one at 08:03.
        let line = SmallRegion.Line(zone: "UTC", fromStop: "West corner", toStop: "North-east corner", departure: "08:00:00",
                                    minutes: 3, dates: (first: "20220101", last: "20221231"))
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeFeed(line, in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // 100 m north of the south-west corner: its nearest stop is the corner, which no trip reaches from the north-east.
        let home = SmallRegion.text(region.point(row: 1, column: 0))
        let day = try harness.json(["plan", "new", region.southWest, region.northEast, home, "--mode", "transit",
                                    "--at", "2022-01-12T07:55"])
        let modes = segments(day).compactMap { $0["mode"]?.stringValue }
        XCTAssertEqual(modes, ["transit", "walk"], "the way back has no line: walked, not a missing ride: \(day)")
        XCTAssertNotNil(segments(day).last?["leg"], "\(day)")
        let note = try XCTUnwrap(segments(day).last?["mode_note"]?.stringValue, "the walk says why: \(day)")
        XCTAssertTrue(note.hasPrefix("walked: no transit route found"), note)

        // The user's own ride on that hop stays theirs: no leg, and why.
        let ridden = try harness.umctl(["plan", "mode", try id(day), "2", "transit", "--json"])
        let chosen = try WireCodec.decoder.decode(JSONValue.self, from: Data(ridden.stdout.utf8))
        XCTAssertEqual(segments(chosen).last?["error"]?["data"]?["code"], .string("no_route"), "\(chosen)")
        XCTAssertNil(segments(chosen).last?["mode_note"], "the user chose: the planner's reason goes: \(chosen)")

        let other = try harness.json(["plan", "new", region.southWest, region.northEast, home, "--mode", "transit",
                                      "--at", "2022-01-12T07:55"])
        let ids = [try id(day), try id(other)]
        let before = try ids.map { try harness.umctl(["plan", "show", $0, "--json"]).stdout }
        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start()
        let after = try ids.map { try harness.umctl(["plan", "show", $0, "--json"]).stdout }
        XCTAssertEqual(after, before, "plan show says the same after a restart")
        let shown = try ids.map { try harness.umctl(["plan", "show", $0]).stdout }
        XCTAssertTrue(shown[0].contains("no leg: "), "why the ride has no leg, after a restart: \(shown[0])")
        XCTAssertFalse(shown[0].contains("no_route"), "words for people, the wire's code only in --json: \(shown[0])")
        XCTAssertTrue(shown[1].contains("mode: walked: no transit route found"), "why the hop is walked: \(shown[1])")
    }
}
