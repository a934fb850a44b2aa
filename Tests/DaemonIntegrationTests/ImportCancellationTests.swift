import Foundation
import Glibc
import XCTest

/// An import stops when its client goes (Ctrl-C on `umctl region import`): planetsplitter is
/// killed, the half-built version removed, and the region stays as it was (here: absent).
final class ImportCancellationTests: XCTestCase {
    func testAnImportWhoseClientGoesStopsAndLeavesTheRegionAsItWas() throws {
        let harness = try startDaemon()
        let tampere = DaemonHarness.tampereFolder
        let client = Process()
        client.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        client.arguments = ["region", "import", "tampere", "--osm", tampere.appendingPathComponent("tampere.osm.pbf").path,
                            "--gtfs", tampere.appendingPathComponent("tampere.zip").path, "--socket", harness.socketPath]
        let output = Pipe()
        client.standardOutput = FileHandle.nullDevice
        client.standardError = output  // progress goes to stderr
        try client.run()
        // Not on a terminal, umctl prints each progress step on its own line: go once planetsplitter runs.
        var seen = ""
        while !seen.contains("building routing database") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        XCTAssertTrue(seen.contains("building routing database"), seen)
        // The client dies as with Ctrl-C (SIGKILL: a test runner's children may block SIGINT and SIGTERM).
        kill(client.processIdentifier, SIGKILL)
        client.waitUntilExit()

        let daemon = try XCTUnwrap(harness.process?.processIdentifier)
        let regions = harness.dataDirectory.appendingPathComponent("regions")
        func leftovers() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: regions.path)) ?? []).filter { $0.hasPrefix(".tampere") }
        }
        for _ in 0..<1_200 where !leftovers().isEmpty || !ChildProcessTests.children(of: daemon).values.filter({ $0 == "planetsplitter" }).isEmpty {
            usleep(25_000)
        }
        XCTAssertEqual(leftovers(), [], "the half-built version and the lock are removed")
        XCTAssertEqual(ChildProcessTests.children(of: daemon).values.filter { $0 == "planetsplitter" }, [], "planetsplitter is gone")
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.count, 0, "the import never went live")
    }

    /// Issue 16, item 9: a refused import or removal leaves no `.NAME.lock` behind.
    func testRefusedImportsAndRemovalsLeaveNoLockFile() throws {
        let harness = try startDaemon()
        let notOSM = harness.directory.appendingPathComponent("empty.osm")
        try Data().write(to: notOSM)
        XCTAssertEqual(try harness.umctl(["region", "remove", "nosuch"]).status, 1)
        XCTAssertNotEqual(try harness.umctl(["region", "import", "broken", "--osm", notOSM.path]).status, 0)
        let regions = harness.dataDirectory.appendingPathComponent("regions").path
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: regions)) ?? []).filter { $0.hasSuffix(".lock") }
        XCTAssertEqual(left, [])
    }
}
