import Foundation
import WireProtocol
import XCTest

/// A line of headway-based service (`frequencies.txt` with `exact_times=0`) only says "about
/// every 10 min": its rides say so, and their times read as estimates, never as a schedule.
final class HeadwayRidesTests: XCTestCase {
    func testAHeadwayRideSaysHowOftenItComesAndMarksItsTimesAsEstimates() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let region = SmallRegion(name: "helsinki", latitude: 60.1699, longitude: 24.9384)
        let line = SmallRegion.Line(zone: "Europe/Helsinki", fromStop: "Kamppi Testi", toStop: "Kallio Testi",
                                    departure: "08:00:00", minutes: 8, dates: ("20260301", "20260331"),
                                    frequency: (seconds: 600, until: "10:00:00", exactTimes: false))
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeFeed(line, in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let plan = try harness.json(["plan", "new", "Kamppi Testi", "Kallio Testi", "--mode", "transit", "--at", "2026-03-10T08:05"])
        let id = String(Int(plan["id"]?.numberValue ?? 0))
        let ride = try XCTUnwrap(plan["segments"]?.arrayValue?.first?["leg"]?["rides"]?.arrayValue?.first, "\(plan)")
        XCTAssertEqual(ride["headway_s"]?.numberValue, 600)
        XCTAssertEqual(ride["departure"]?.stringValue, "2026-03-10T08:10:00+02:00", "the run is still the best estimate")

        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("~08:10  subway 7"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("→ ~08:18 Kallio Testi (about every 10 min; times are estimates)"), shown.stdout)

        let alternatives = try harness.umctl(["plan", "alternatives", id, "1"])
        XCTAssertTrue(alternatives.stdout.contains("7 (about every 10 min)"), alternatives.stdout)

        // Pinning a headway ride works as for any ride (its run's trip ID is what is kept).
        let pinned = try harness.umctl(["plan", "pin", id, "1", "08:20"])
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        let after = try harness.umctl(["plan", "show", id]).stdout
        XCTAssertTrue(after.contains("pinned"), after)
        XCTAssertTrue(after.contains("~08:20  subway 7"), after)

        let compare = try harness.umctl(["compare", "Kamppi Testi", "Kallio Testi", "--at", "2026-03-10T08:05"])
        XCTAssertEqual(compare.status, 0, compare.stderr)
        XCTAssertTrue(compare.stdout.contains("note: transit line 7 runs about every 10 min; its times are estimates"), compare.stdout)
    }
}
