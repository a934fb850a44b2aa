import Foundation
import WireProtocol
import XCTest

/// Issue 9: a region's zone is known, never guessed silently; a route that exists is found both ways.
final class RegionTimeZoneTests: XCTestCase {
    private func option(_ mode: String, in compare: JSONValue) -> JSONValue? {
        compare["options"]?.arrayValue?.first { $0["mode"]?.stringValue == mode }
    }

    func testACarRouteToAPointBesideADeadEndExitIsFoundBothWaysAndTheRetriesAreCounted() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let region = SmallRegion(name: "montevideo", latitude: -34.9011, longitude: -56.1645, withDeadEndExit: true)
        let imported = try harness.umctl(["region", "import", "montevideo", "--osm", try region.writeOSM(in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        XCTAssertEqual(try harness.counters().noRouteRetries, 0)
        for (from, to) in [(region.northEast, region.deadEndPoint), (region.deadEndPoint, region.northEast)] {
            let compare = try harness.json(["compare", from, to, "--at", "2026-05-04T09:00"])
            let car = try XCTUnwrap(option("car", in: compare))
            XCTAssertTrue(car["error"]?.isNull ?? true, "\(from) → \(to): \(car)")
            XCTAssertGreaterThan(car["duration_s"]?.numberValue ?? 0, 0, "\(from) → \(to)")
        }
        XCTAssertGreaterThan(try harness.counters().noRouteRetries ?? 0, 0, "the way in was found by a retry from another road")
        XCTAssertTrue(try harness.umctl(["status"]).stdout.contains("no_route retries from nearby roads: "))
    }

    func testARegionWithoutAFeedTakesTheZoneOfItsPositionAndSaysSoUntilTheUserSetsAnother() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let region = SmallRegion(name: "montevideo", latitude: -34.9011, longitude: -56.1645)
        let imported = try harness.umctl(["region", "import", "montevideo", "--osm", try region.writeOSM(in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("time zone America/Montevideo: derived from the region's position"), imported.stdout)
        XCTAssertTrue(imported.stdout.contains("zone.tab"), "names the database it used: \(imported.stdout)")
        let listed = try XCTUnwrap(try harness.json(["region", "list"])["regions"]?.arrayValue?.first)
        XCTAssertEqual(listed["time_zone"]?.stringValue, "America/Montevideo")
        XCTAssertTrue(listed["time_zone_source"]?.stringValue?.hasPrefix("derived from the region's position") ?? false)

        // Typed times are read in the region's zone (−03:00), with or without an offset.
        let plan = try harness.json(["plan", "new", region.southWest, region.northEast, "--mode", "walk", "--at", "2026-05-04T09:00"])
        XCTAssertEqual(plan["time_preference"]?["time"]?.stringValue, "2026-05-04T09:00:00-03:00")
        XCTAssertEqual(plan["time_zone"]?.stringValue, "America/Montevideo")
        let id = String(Int(plan["id"]?.numberValue ?? 0))
        let offset = try harness.json(["plan", "new", region.southWest, region.northEast, "--mode", "walk", "--at", "2026-05-04T12:00Z"])
        XCTAssertEqual(offset["time_preference"]?["time"]?.stringValue, "2026-05-04T09:00:00-03:00")

        // `region set` changes the zone without a re-import; the plan is shown in it at once.
        let set = try harness.umctl(["region", "set", "montevideo", "--time-zone", "UTC"])
        XCTAssertEqual(set.status, 0, set.stderr)
        let shown = try harness.json(["plan", "show", id])
        XCTAssertEqual(shown["time_zone"]?.stringValue, "UTC")
        XCTAssertEqual(shown["time_preference"]?["time"]?.stringValue, "2026-05-04T12:00:00Z")
        let text = try harness.umctl(["plan", "show", id]).stdout
        XCTAssertTrue(text.contains("times in UTC"), "the IANA name, not GMT: \(text)")
        XCTAssertFalse(text.contains("GMT"), text)
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["time_zone_source"]?.stringValue,
                       "set with umctl region set")

        // A zone Foundation would accept but that is no IANA name changes nothing.
        let bad = try harness.umctl(["region", "set", "montevideo", "--time-zone", "GMT+0200"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("GMT+0200"), bad.stderr)
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["time_zone"]?.stringValue, "UTC")

        // A re-import without --time-zone keeps the zone the user chose, and says so.
        let again = try harness.umctl(["region", "import", "montevideo", "--osm", try region.writeOSM(in: harness.directory).path,
                                       "--force"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("kept the time zone UTC"), again.stdout)
    }

    func testFeedsThatDisagreeOnTheZoneFailTheImportNamingEachFeedAndZone() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let region = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)
        let osm = try region.writeOSM(in: harness.directory)
        let line = SmallRegion.Line(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square",
                                    departure: "10:32:00", minutes: 8, dates: ("20260801", "20260831"))
        let tokyo = try region.writeFeed(line, in: harness.directory, fileName: "tokyo.zip")
        var seoulLine = line
        seoulLine.zone = "Asia/Seoul"
        let seoul = try region.writeFeed(seoulLine, in: harness.directory, fileName: "seoul.zip")
        let failed = try harness.umctl(["region", "import", "tokyo", "--osm", osm.path, "--gtfs", tokyo.path, "--gtfs", seoul.path])
        XCTAssertNotEqual(failed.status, 0)
        for word in ["tokyo.zip", "Asia/Tokyo", "seoul.zip", "Asia/Seoul"] {
            XCTAssertTrue(failed.stderr.contains(word), "\(word) in \(failed.stderr)")
        }
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.count, 0, "nothing was imported")

        // Imported with one feed, a re-import without --gtfs keeps it; --no-transit drops it on purpose.
        XCTAssertEqual(try harness.umctl(["region", "import", "tokyo", "--osm", osm.path, "--gtfs", tokyo.path]).status, 0)
        let kept = try harness.umctl(["region", "import", "tokyo", "--osm", osm.path, "--force"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertTrue(kept.stdout.contains("kept the current transit feeds tokyo.zip"), kept.stdout)
        XCTAssertTrue(kept.stdout.contains("transit: yes"), kept.stdout)
        let dropped = try harness.umctl(["region", "import", "tokyo", "--osm", osm.path, "--no-transit"])
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        XCTAssertTrue(dropped.stdout.contains("transit removed on purpose"), dropped.stdout)
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["has_transit"], .bool(false))
    }

    func testWhereRegionsOverlapTheSmallestHoldingBothEndsAnswers() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), assertingCleanExit: false)
        // A small region inside Tampere's extent, in a zone no part of Tampere has, so the
        // answering region shows in the times.
        let hervanta = SmallRegion(name: "hervanta", latitude: 61.4502, longitude: 23.8510)
        let imported = try harness.umctl(["region", "import", "hervanta", "--osm", try hervanta.writeOSM(in: harness.directory).path,
                                          "--time-zone", "Asia/Tokyo"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("time zone Asia/Tokyo: given with --time-zone"), imported.stdout)

        let inside = try harness.json(["compare", hervanta.southWest, hervanta.northEast, "--at", "2022-01-12T08:00"])
        XCTAssertEqual(inside["time_zone"]?.stringValue, "Asia/Tokyo", "both ends are in the smaller region")
        let across = try harness.json(["compare", hervanta.southWest, Tampere.keskustori, "--at", "2022-01-12T08:00"])
        XCTAssertEqual(across["time_zone"]?.stringValue, "Europe/Helsinki", "only Tampere holds both ends")
        XCTAssertEqual(across["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "car" }?["error"], .null)
    }
}
