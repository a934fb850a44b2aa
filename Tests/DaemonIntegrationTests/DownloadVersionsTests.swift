import Foundation
import HTTPTestSupport
import WireProtocol
import XCTest

/// A source fetched by URL is one version of the server's file, whole: an interrupted transfer
/// resumes only onto the same version (`If-Range` on its strong ETag, and the 206's ETag
/// checked), and the copy a region uses changes only once an import accepts the new one.
final class DownloadVersionsTests: ServedTownTestCase {
    private func importTown(gtfs: String) throws -> DaemonHarness.CommandResult {
        try harness.umctl(["region", "import", "town", "--osm", server.url("town.osm"), "--gtfs", gtfs])
    }

    private func sha256(_ path: String) throws -> String {
        let result = try DaemonHarness.run("/usr/bin/sha256sum", [path], in: harness.directory)
        return String(result.stdout.prefix(64))
    }

    /// The manifest's record of the timetable source: the copy's path and its checksum.
    private func keptTimetable() throws -> (path: String, sha256: String) {
        let data = try Data(contentsOf: harness.dataDirectory.appendingPathComponent("regions/town/manifest.json"))
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let source = try XCTUnwrap((manifest["sources"] as? [[String: Any]])?.first { ($0["role"] as? String) != "osm" })
        return (try XCTUnwrap(source["path"] as? String), try XCTUnwrap(source["sha256"] as? String))
    }

    func testATransferCutOffBeforeTheServersFileChangedIsFetchedWholeAgainNotJoinedToTheNewVersion() throws {
        try harness.start()
        let url = server.url("cut-once/town.zip")
        let cut = try importTown(gtfs: url)
        XCTAssertTrue(cut.stderr.contains("the transfer was cut off after"), cut.stderr)
        // The server's file changes (a bigger timetable) before the next attempt; this server
        // ignores If-Range, so only the client's check of the 206's ETag keeps the versions apart.
        _ = try SmallTown.writeFeed(in: served, packedStops: 300)
        let again = try importTown(gtfs: url)
        XCTAssertEqual(again.status, 0, "the new version imports whole: \(again.stderr)")
        XCTAssertEqual(try sha256(try keptTimetable().path), try sha256(served.appendingPathComponent("town.zip").path),
                       "the kept copy is the server's new file, byte for byte")
        XCTAssertEqual(server.requests().last { $0.path == "/cut-once/town.zip" }?.status, 200, "fetched whole")
    }

    func testARefusedDownloadLeavesTheCopyTheRegionUsesAsItWas() throws {
        try harness.start()
        XCTAssertEqual(try importTown(gtfs: server.url("town.zip")).status, 0)
        let kept = try keptTimetable()
        XCTAssertEqual(try sha256(kept.path), kept.sha256)
        for body in [Data(), Data("this is no zip file".utf8)] {
            try body.write(to: served.appendingPathComponent("town.zip"))
            let refused = try harness.umctl(["region", "update", "town"])
            XCTAssertTrue(refused.stdout.contains("not_a_zip") || refused.stderr.contains("not_a_zip")
                          || refused.stdout.contains("failed") || refused.status != 0, "\(refused.stdout) \(refused.stderr)")
            XCTAssertEqual(try keptTimetable().path, kept.path, "the manifest still names the copy")
            XCTAssertEqual(try sha256(kept.path), kept.sha256, "and that copy is untouched (\(body.count) bytes served)")
        }
    }
}
