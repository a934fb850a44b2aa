import Foundation
import Glibc
import HTTPTestSupport
import WireProtocol
import XCTest

/// Issue 22, "Updates": `region update` asks each URL source whether it changed (a file: by
/// size, time and sha256) and rebuilds only what did: a new feed the timetable on the kept
/// streets, a new extract everything; a source that fails leaves the region serving.
final class RegionUpdateTests: XCTestCase {
    private var served: URL!
    private var server: LocalHTTPServer!
    private var harness: DaemonHarness!

    override func setUpWithError() throws {
        harness = try DaemonHarness()
        served = harness.directory.appendingPathComponent("served", isDirectory: true)
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try SmallTown.osm.write(to: served.appendingPathComponent("town.osm"), atomically: true, encoding: .utf8)
        _ = try SmallTown.writeFeed(in: served)
        server = try LocalHTTPServer(directory: served)
        try harness.start()
    }

    override func tearDown() {
        server?.stop()
        _ = harness?.stop()
    }

    private func importTownByURL() throws {
        let imported = try harness.umctl(["region", "import", "town", "--osm", server.url("town.osm"), "--gtfs", server.url("town.zip")])
        XCTAssertEqual(imported.status, 0, imported.stderr)
    }

    private func update(_ arguments: [String] = []) throws -> JSONValue {
        let regions = try harness.json(["region", "update", "town"] + arguments)["regions"]?.arrayValue
        return try XCTUnwrap(regions?.first, "\(String(describing: regions))")
    }

    /// The version directory the region's link points at.
    private func liveVersion() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: harness.dataDirectory.appendingPathComponent("regions/town").path)
    }

    private func inode(_ file: String) throws -> UInt64 {
        var status = stat()
        XCTAssertEqual(stat(harness.dataDirectory.appendingPathComponent("regions/town/\(file)").path, &status), 0)
        return UInt64(status.st_ino)
    }

    private func stopNames() throws -> [String] {
        let found = try harness.json(["search", "Packed", "--kind", "stop", "--limit", "20"])
        return (found["results"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    private func transitAnswers() throws -> Bool {
        let compare = try harness.json(["compare", SmallTown.first, SmallTown.last, "--at", "2022-01-12T07:55"])
        return compare["options"]?.arrayValue?.contains { $0["mode"]?.stringValue == "transit" && $0["duration_s"]?.numberValue != nil } ?? false
    }

    func testAnUpdateWithNothingChangedMakesOneConditionalRequestPerSourceAndRebuildsNothing() throws {
        try importTownByURL()
        let version = try liveVersion()
        server.clearRequests()
        let result = try update()
        XCTAssertEqual(result["rebuilt"]?.stringValue, "nothing")
        XCTAssertEqual(result["sources"]?.arrayValue?.map { $0["changed"] }, [.bool(false), .bool(false)])
        let requests = server.requests()
        XCTAssertEqual(requests.map(\.path), ["/town.osm", "/town.zip"])
        XCTAssertEqual(requests.map(\.status), [304, 304])
        XCTAssertTrue(requests.allSatisfy { $0.ifNoneMatch != nil }, "\(requests)")
        XCTAssertEqual(try liveVersion(), version, "no new version")
    }

    func testANewFeedOnTheServerRebuildsOnlyTheTimetableOnTheKeptStreets() throws {
        try importTownByURL()
        let version = try liveVersion(), streets = try inode("streets.bin")
        XCTAssertEqual(try stopNames(), [])
        _ = try SmallTown.writeFeed(in: served, packedStops: 3)
        let result = try update()
        XCTAssertEqual(result["rebuilt"]?.stringValue, "timetable", "\(result)")
        XCTAssertEqual(result["sources"]?.arrayValue?.map { $0["changed"] }, [.bool(false), .bool(true)])
        XCTAssertNotEqual(try liveVersion(), version, "a new version went live")
        XCTAssertEqual(try inode("streets.bin"), streets, "the street files are the old version's, not rebuilt")
        XCTAssertEqual(Set(try stopNames()), ["Packed 0", "Packed 1", "Packed 2"], "the new feed's stops are searchable")
        XCTAssertTrue(try transitAnswers())
        XCTAssertEqual(try update()["rebuilt"]?.stringValue, "nothing", "the next update finds nothing new")
    }

    func testAStopTheNewFeedDroppedIsNoLongerSearchable() throws {
        _ = try SmallTown.writeFeed(in: served, packedStops: 2)
        try importTownByURL()
        XCTAssertEqual(try stopNames().count, 2)
        _ = try SmallTown.writeFeed(in: served)
        XCTAssertEqual(try update()["rebuilt"]?.stringValue, "timetable")
        XCTAssertEqual(try stopNames(), [])
    }

    func testANewExtractRebuildsTheStreetsAndTheTimetable() throws {
        try importTownByURL()
        let streets = try inode("streets.bin")
        try (SmallTown.osm + "<!-- edited -->\n").write(to: served.appendingPathComponent("town.osm"), atomically: true, encoding: .utf8)
        let result = try update()
        XCTAssertEqual(result["rebuilt"]?.stringValue, "streets and timetable", "\(result)")
        XCTAssertNotEqual(try inode("streets.bin"), streets)
        XCTAssertTrue(try transitAnswers())
    }

    func testAFileReplacedInPlaceIsPickedUp() throws {
        let osm = served.appendingPathComponent("town.osm").path, feed = served.appendingPathComponent("town.zip").path
        XCTAssertEqual(try harness.umctl(["region", "import", "town", "--osm", osm, "--gtfs", feed]).status, 0)
        XCTAssertEqual(try update()["rebuilt"]?.stringValue, "nothing")
        _ = try SmallTown.writeFeed(in: served, packedStops: 1)
        XCTAssertEqual(try update()["rebuilt"]?.stringValue, "timetable")
        XCTAssertEqual(try stopNames(), ["Packed 0"])
    }

    func testASourceThatFailsLeavesTheRegionServingAndSaysWhy() throws {
        try importTownByURL()
        let version = try liveVersion()
        try FileManager.default.removeItem(at: served.appendingPathComponent("town.zip"))
        let result = try update()
        XCTAssertEqual(result["rebuilt"]?.stringValue, "nothing")
        XCTAssertEqual(result["error"]?["data"]?["code"]?.stringValue, "fetch_http_status", "\(result)")
        let feed = result["sources"]?.arrayValue?.last
        XCTAssertEqual(feed?["error"]?["message"]?.stringValue, "GTFS feed \(server.url("town.zip")): the server answered HTTP 404")
        XCTAssertEqual(try liveVersion(), version)
        XCTAssertTrue(try transitAnswers())
        let shown = try harness.umctl(["region", "update", "town"])
        XCTAssertTrue(shown.stdout.contains("region town: not updated: GTFS feed \(server.url("town.zip")): the server answered HTTP 404"),
                      shown.stdout)
    }
}
