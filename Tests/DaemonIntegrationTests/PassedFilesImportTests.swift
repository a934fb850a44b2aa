import Foundation
import WireProtocol
import XCTest

/// Issue 16: imports through the sandboxed unit work from any file the user can read. umctl
/// passes the files open (SCM_RIGHTS), so PrivateTmp and ProtectHome can stay.
final class PassedFilesImportTests: XCTestCase {
    func testAnImportReadsFilesThatOnlyTheClientsMountNamespaceCanSee() throws {
        let harness = try DaemonHarness()
        try harness.start()
        defer { XCTAssertEqual(harness.stop(), 0) }
        var region = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)
        region.size = 3
        let line = SmallRegion.Line(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square",
                                    departure: "08:00:00", minutes: 5, dates: ("20260101", "20261231"))
        let sources = harness.directory.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        _ = try region.writeOSM(in: sources)
        _ = try region.writeFeed(line, in: sources)
        // Like the unit's PrivateTmp: the client's namespace has its own tmpfs over `private`,
        // holding the files; the daemon's `private` is an empty folder.
        let hidden = harness.directory.appendingPathComponent("private")
        try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
        let osm = hidden.appendingPathComponent("tokyo.osm").path, feed = hidden.appendingPathComponent("tokyo.zip").path
        let script = "mount -t tmpfs tmpfs '\(hidden.path)' && cp '\(sources.path)'/tokyo.osm '\(sources.path)'/tokyo.zip '\(hidden.path)'/ "
            + "&& exec '\(DaemonHarness.umctl)' region import tokyo --osm '\(osm)' --gtfs '\(feed)' --socket '\(harness.socketPath)'"
        let probe = try DaemonHarness.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "true"], in: harness.directory)
        guard probe.status == 0 else {
            throw XCTSkip("needs a mount namespace of its own (unshare --mount, as root): \(probe.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: osm), "the daemon's namespace cannot see the files")

        // By path alone (what umctl sent before), the daemon cannot open them.
        XCTAssertThrowsError(try harness.client().call(Endpoints.regionImport, Params.RegionImport(name: "tokyo", osm: osm, gtfs: [feed]))) {
            XCTAssertEqual(($0 as? WireError)?.code, "source_not_found", "\($0)")
        }
        let imported = try DaemonHarness.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "sh", "-c", script],
                                             in: harness.directory)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("imported region tokyo"), imported.stdout)
        let listed = try XCTUnwrap(try harness.json(["region", "list"])["regions"]?.arrayValue?.first)
        XCTAssertEqual(listed["transit_feeds"]?.arrayValue?.first?["feed"]?.stringValue, "tokyo.zip")
        // The region records the paths the user gave, and the daemon kept no link or file open.
        let manifest = try String(contentsOf: harness.dataDirectory.appendingPathComponent("regions/tokyo/manifest.json"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(osm.replacingOccurrences(of: "/", with: "\\/")) || manifest.contains(osm), manifest)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.dataDirectory.path).filter { $0.hasPrefix(".passed-files") }
        XCTAssertEqual(leftovers, [])
        let pid = try XCTUnwrap(harness.process?.processIdentifier)
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
        XCTAssertFalse(open.contains { $0.hasSuffix("tokyo.osm") || $0.hasSuffix("tokyo.zip") }, "passed files are closed: \(open)")
    }
}
