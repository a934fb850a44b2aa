import Foundation
import Glibc
import Transit
import WireProtocol
import XCTest

/// Issue 26/27 review: the transit step of an import times footpaths on Routino workers. A
/// cancelled import stops that timing at once and leaves the region as it was (no timetable of
/// straight lines finished for nothing, the region's lock released); workers that cannot start
/// give straight-line footpaths that the import's answer and `status` report.
final class FootpathTimingStopTests: XCTestCase {
    /// A daemon whose Routino worker is a script: the real worker, unless a mode file says
    /// `hang` (answers `ping`, then never answers a `time` request: the footpath timing waits
    /// on it) or `broken` (cannot start, as without a routing database).
    private func startDaemon() throws -> (DaemonHarness, mode: URL, asked: URL) {
        let harness = try makeDaemon()
        let mode = harness.directory.appendingPathComponent("worker-mode"), asked = harness.directory.appendingPathComponent("timing-asked")
        let real = DaemonHarness.binaries.appendingPathComponent("usefulmap-routino-worker").path
        let script = harness.directory.appendingPathComponent("routino-worker")
        try Data("""
            #!/bin/sh
            case "$(cat '\(mode.path)' 2>/dev/null)" in
            hang)
              echo ready
              while read -r line; do
                case "$line" in
                  time*) touch '\(asked.path)'; exec sleep 600 ;;
                  *) echo pong ;;
                esac
              done ;;
            broken) echo 'fatal cannot open the routing database'; exit 1 ;;
            esac
            exec '\(real)' "$@"

            """.utf8).write(to: script)
        XCTAssertEqual(chmod(script.path, 0o755), 0)
        try harness.start(environment: ["USEFULMAP_ROUTINO_WORKER": script.path])
        return (harness, mode, asked)
    }

    /// Two stops 283 m apart (a footpath each way) on a 3 × 3 street grid.
    private func importArguments(in harness: DaemonHarness) throws -> [String] {
        var region = SmallRegion(name: "lisbon", latitude: 38.7223, longitude: -9.1393)
        region.size = 3
        let line = SmallRegion.Line(zone: "Europe/Lisbon", fromStop: "Rossio", toStop: "Chiado",
                                    departure: "08:00:00", minutes: 5, dates: ("20260101", "20261231"))
        return ["region", "import", "lisbon", "--force", "--osm", try region.writeOSM(in: harness.directory).path,
                "--gtfs", try region.writeFeed(line, in: harness.directory).path]
    }

    /// True once no import holds the region's lock (the daemon's `flock` on a file it removes
    /// when it lets go), waiting at most `seconds`.
    private func regionUnlocked(_ harness: DaemonHarness, within seconds: Double) -> Bool {
        let path = harness.dataDirectory.appendingPathComponent("regions/.lisbon.lock").path
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            if descriptor < 0 { return true }
            let free = flock(descriptor, LOCK_EX | LOCK_NB) == 0
            close(descriptor)  // lets go of the lock too
            if free { return true }
            usleep(100_000)
        } while Date() < deadline
        return false
    }

    func testACancelledImportStopsTimingFootpathsAndLeavesTheRegionAsItWas() throws {
        let (harness, mode, asked) = try startDaemon()
        let arguments = try importArguments(in: harness)
        let first = try harness.umctl(arguments)
        XCTAssertEqual(first.status, 0, first.stderr)
        let regions = harness.dataDirectory.appendingPathComponent("regions")
        let live = try FileManager.default.destinationOfSymbolicLink(atPath: regions.appendingPathComponent("lisbon").path)
        let report = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: regions.appendingPathComponent("lisbon")))
        XCTAssertEqual(report.streetTimedFootpaths, 2, "Rossio ↔ Chiado on the streets")
        let listed = try harness.json(["region", "list"])

        // The same import again; its footpath timing waits on a worker that never answers.
        try Data("hang".utf8).write(to: mode)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        client.arguments = arguments + ["--socket", harness.socketPath]
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: asked.path) && client.isRunning { usleep(100_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: asked.path), "the import reached the footpath timing")
        kill(client.processIdentifier, SIGINT)  // the user's Ctrl-C: the client goes, the import is cancelled
        client.waitUntilExit()

        // The worker would keep a request for its 60 s answer timeout, twice; a cancel ends the import well before.
        XCTAssertTrue(regionUnlocked(harness, within: 30), "the cancelled import still holds the region: its footpath timing went on")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: regions.appendingPathComponent("lisbon").path), live,
                       "the region's version is the one before")
        XCTAssertEqual(try GTFSImporter.lastReport(regionDirectory: regions.appendingPathComponent("lisbon")), report,
                       "the timetable is the one before")
        let left = try FileManager.default.contentsOfDirectory(atPath: regions.path)
            .filter { $0.hasPrefix(".lisbon.") && $0 != ".lisbon.lock" }
        XCTAssertEqual(left, [live], "no half-made version is left")
        XCTAssertEqual(try harness.json(["region", "list"]), listed)
    }

    func testWorkersThatCannotStartGiveStraightLineFootpathsThatTheImportAndStatusReport() throws {
        let (harness, mode, _) = try startDaemon()
        try Data("broken".utf8).write(to: mode)
        let result = try harness.umctl(try importArguments(in: harness))
        XCTAssertEqual(result.status, 0, result.stderr)
        // Why, as the import goes (piped progress is one line per update on stderr) …
        XCTAssertTrue(result.stderr.contains("the streets cannot time footpaths (the routing worker cannot start: "
                                             + "cannot open the routing database): straight lines instead"), result.stderr)
        // … how many, in the answer, the import report and `status`.
        XCTAssertTrue(result.stdout.contains("2 footpaths between stops could not be timed on the streets"), result.stdout)
        let report = try XCTUnwrap(try GTFSImporter.lastReport(
            regionDirectory: harness.dataDirectory.appendingPathComponent("regions/lisbon")))
        XCTAssertEqual(report.straightLineFootpaths, 2)
        XCTAssertEqual(report.streetTimedFootpaths, 0)
        let region = try XCTUnwrap(try harness.json(["status"])["regions"]?.arrayValue?.first)
        XCTAssertEqual(region["straight_line_footpaths"]?.numberValue, 2, "\(region)")
    }
}
