import Foundation
import Glibc
import HTTPTestSupport
import WireProtocol
import XCTest

/// Issue 22 on the real region: Tampere imported by URL; an update with nothing changed is
/// one conditional request per source; a feed on the server that moves a pinned bus rebuilds
/// only the timetable, and the plan gets its pending update.
final class TampereUpdateByURLTests: XCTestCase {
    func testTampereByURLUpdatesOnlyItsTimetableAndThePinnedPlanGetsItsPendingUpdate() throws {
        let harness = try makeDaemon()
        let served = harness.directory.appendingPathComponent("served", isDirectory: true)
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        for name in ["tampere.osm.pbf", "tampere.zip"] {
            try FileManager.default.copyItem(at: DaemonHarness.tampereFolder.appendingPathComponent(name),
                                             to: served.appendingPathComponent(name))
        }
        let server = try LocalHTTPServer(directory: served)
        defer { server.stop() }
        try harness.start(extraArguments: ["--clock-start", BackgroundRefreshTests.clockStart, "--update-interval", "never"])
        defer { XCTAssertEqual(harness.stop(), 0, harness.log) }

        let imported = try harness.umctl(["region", "import", "tampere", "--osm", server.url("tampere.osm.pbf"),
                                          "--gtfs", server.url("tampere.zip")])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit",
                                        "--at", Tampere.morning, "--title", "pinned"])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let segments = try XCTUnwrap(created["segments"]?.arrayValue)
        let transit = try XCTUnwrap(segments.firstIndex { $0["mode"] == .string("transit") }, "\(segments)") + 1
        XCTAssertEqual(try harness.json(["plan", "pin", id, String(transit), "08:15"])["pending"], .array([]))

        server.clearRequests()
        let unchanged = try XCTUnwrap(try harness.json(["region", "update", "tampere"])["regions"]?.arrayValue?.first)
        XCTAssertEqual(unchanged["rebuilt"]?.stringValue, "nothing")
        XCTAssertEqual(server.requests().map(\.status), [304, 304], "one conditional request per source")

        let link = harness.dataDirectory.appendingPathComponent("regions/tampere/streets.bin").path
        var before = stat(), after = stat()
        XCTAssertEqual(stat(link, &before), 0)
        let feed = try EditedFeed.reissued(from: PendingUpdateTests.tampereFeed, in: harness.directory)
        try FileManager.default.removeItem(at: served.appendingPathComponent("tampere.zip"))
        try FileManager.default.copyItem(at: feed, to: served.appendingPathComponent("tampere.zip"))
        let updated = try XCTUnwrap(try harness.json(["region", "update", "tampere"])["regions"]?.arrayValue?.first)
        XCTAssertEqual(updated["rebuilt"]?.stringValue, "timetable", "\(updated)")
        XCTAssertEqual(stat(link, &after), 0)
        XCTAssertEqual(after.st_ino, before.st_ino, "the streets were kept, not rebuilt")

        _ = try BackgroundRefreshTests.waitForQueue(harness)
        let shown = try harness.json(["plan", "show", id])
        XCTAssertEqual(shown["pending"]?.arrayValue?.first?["segment"], .number(Double(transit)), "\(shown)")
        XCTAssertEqual(shown["pinned_segment"], .number(Double(transit)))
    }
}
