@testable import Daemon
import Foundation
import Glibc
import HTTPTestSupport
import WireProtocol
import XCTest

/// Issue 22, "Updates": `region update` asks each URL source whether it changed (a file: by
/// size, time and sha256) and rebuilds only what did: a new feed the timetable on the kept
/// streets, a new extract everything; a source that fails leaves the region serving.
final class RegionUpdateTests: ServedTownTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try harness.start()
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

    func testARegionsLastCheckIsShownAfterARestartAndKeptInAnOwnerOnlyFile() throws {
        try importTownByURL()
        try FileManager.default.removeItem(at: served.appendingPathComponent("town.zip"))
        _ = try update()
        func lastCheck() throws -> JSONValue? {
            try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["last_check"]
        }
        let before = try XCTUnwrap(try lastCheck(), "a check was made")
        XCTAssertEqual(before["failures"], .number(1), "\(before)")
        XCTAssertEqual(harness.stop(), 0, harness.log)
        let file = harness.dataDirectory.appendingPathComponent("region-checks.json")
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(permissions?.intValue, 0o600, "its errors may name source URLs")
        try harness.start()
        let after = try XCTUnwrap(try lastCheck(), "the last check survives the restart: \(harness.log.suffix(2000))")
        XCTAssertEqual(after, before)
        XCTAssertEqual(try harness.json(["region", "remove", "town"])["removed"], .string("town"))
        let kept = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(kept.contains("town"), "a removed region's checks go with it: \(kept)")
    }
}

/// Issue 22: the daemon checks every region on its own, every `update_interval`; a failed
/// check is shown in `region list` and tried again with backoff.
final class ScheduledRegionUpdateTests: ServedTownTestCase {
    func testTheDaemonChecksEveryRegionOnItsOwnAndBacksOffAfterAFailure() throws {
        try harness.start(extraArguments: ["--update-interval", "2"])
        let imported = try harness.umctl(["region", "import", "town", "--osm", server.url("town.osm"), "--gtfs", server.url("town.zip")])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        func lastCheck() throws -> JSONValue? {
            try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["last_check"]
        }
        _ = try SmallTown.writeFeed(in: served, packedStops: 1)
        func packedStop() throws -> String? {
            try harness.json(["search", "Packed", "--kind", "stop"])["results"]?.arrayValue?.first?["name"]?.stringValue
        }
        var tries = 0
        while try packedStop() == nil, tries < 300 {
            tries += 1
            usleep(100_000)
        }
        XCTAssertEqual(try packedStop(), "Packed 0", "the new feed was picked up without asking: \(harness.log)")
        XCTAssertTrue(harness.log.contains("region updated") && harness.log.contains("timetable"), harness.log)

        try FileManager.default.removeItem(at: served.appendingPathComponent("town.zip"))
        tries = 0
        while try lastCheck()?["failures"]?.numberValue ?? 0 < 1, tries < 300 {
            tries += 1
            usleep(100_000)
        }
        let failed = try XCTUnwrap(try lastCheck())
        XCTAssertEqual(failed["error"]?["data"]?["code"]?.stringValue, "fetch_http_status", "\(failed)")
        XCTAssertNotNil(failed["next_check"]?.stringValue)
        let listed = try harness.umctl(["region", "list"]).stdout
        XCTAssertTrue(listed.contains("note: region town was not updated at ") && listed.contains("the server answered HTTP 404"), listed)
        XCTAssertTrue(harness.log.contains("region update failed"), harness.log)
        XCTAssertFalse(harness.log.contains("town.zip\","), "the log names the source by its redacted URL only")
    }
}
