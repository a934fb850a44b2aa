import Foundation
import WireProtocol
import XCTest

/// Issue 41 item 6: an error names what the user typed — the option, the place — never a wire
/// parameter or an internal place ID.
final class ErrorsNameWhatWasTypedTests: SharedDaemonTestCase {
    static let region = SmallRegion(name: "oulu", latitude: 65.0121, longitude: 25.4651)

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try super.makeSharedDaemon()
        // A feed that says nothing of accessibility: one trip from the south-west corner east.
        var feed = MiniFeed()
        feed.agencyName = "Oulu transit"
        feed.agencyURL = "https://example.org"
        let (westLat, westLon) = region.stopPoint(row: 0, column: 0), (eastLat, eastLon) = region.stopPoint(row: 0, column: 6)
        feed.stops = [("W", "West corner", westLat, westLon), ("E", "East stop", eastLat, eastLon)]
        feed.routes = [("R", "4", 3)]
        feed.trip("T", route: "R", [("W", "08:00:00"), ("E", "08:01:00")])
        let gtfs = try region.writeZip(feed.files, in: harness.directory, fileName: "oulu.zip")
        let result = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                        "--gtfs", gtfs.path])
        guard result.status == 0 else { throw HarnessError("import: \(result.stderr)") }
        return harness
    }

    func testATooShortRealtimeIntervalIsRefusedNamingTheOption() throws {
        let feed = try harness.directory.appendingPathComponent("trips.pb").path
        let refused = try harness.umctl(["region", "set", Self.region.name, "--realtime", feed, "--realtime-interval", "5s"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--realtime-interval"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("10s"), "says what it takes: \(refused.stderr)")
        XCTAssertFalse(refused.stderr.contains("realtime_interval_s"), refused.stderr)
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["realtime_feeds"]?.arrayValue ?? [], [],
                       "nothing changed")
    }

    /// Past umctl's own check: the daemon's refusal of a raw request names the option and the range too.
    func testTheDaemonRefusesATooShortRealtimeIntervalNamingTheOptionAndTheRange() async throws {
        let feed = try harness.directory.appendingPathComponent("trips.pb").path
        do {
            _ = try await harness.client().call(Endpoints.regionSet, Params.RegionSet(name: Self.region.name, realtime: [feed],
                                                                                      realtimeIntervalS: 5))
            XCTFail("an interval of 5 s was accepted")
        } catch let error as WireError {
            XCTAssertEqual(error.code, "invalid_params")
            XCTAssertTrue(error.message.contains("--realtime-interval"), error.message)
            XCTAssertTrue(error.message.contains("10 to 86400 seconds"), error.message)
            XCTAssertTrue(error.message.contains("got 5"), error.message)
        }
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["realtime_feeds"]?.arrayValue ?? [], [],
                       "nothing changed")
    }

    func testStrictStepFreeTransitOnAFeedWithoutAccessibilityDataSaysSo() throws {
        let east = SmallRegion.text(Self.region.point(row: 0, column: 6))
        let compare = try harness.json(["compare", Self.region.southWest, east, "--at", "2022-01-12T07:55", "--wheelchair=strict"])
        let transit = try XCTUnwrap(compare["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "transit" }, "\(compare)")
        XCTAssertEqual(transit["error"]?["data"]?["code"]?.stringValue, "no_route", "\(transit)")
        XCTAssertTrue(transit["error"]?["message"]?.stringValue?.contains("no trip in this feed is marked accessible (trips.txt wheelchair_accessible)") == true,
                      "\(transit)")
        let plain = try harness.json(["compare", Self.region.southWest, east, "--at", "2022-01-12T07:55"])
        XCTAssertEqual(plain["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "transit" }?["lines"]?.arrayValue,
                       [.string("4")], "the trip is there without the strict need: \(plain)")
    }

    func testComparingAPlaceWithItselfNamesThePlaceNotItsInternalID() throws {
        let place = Self.region.southWest
        let refused = try harness.umctl(["compare", place, place])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains(place), "names the place as typed: \(refused.stderr)")
        XCTAssertFalse(refused.stderr.contains("coord:") || refused.stderr.contains("node:") || refused.stderr.contains("stop:"),
                       refused.stderr)
        XCTAssertEqual(try harness.json(["history", "routes"])["entries"]?.arrayValue ?? [], [], "nothing recorded")
    }
}
