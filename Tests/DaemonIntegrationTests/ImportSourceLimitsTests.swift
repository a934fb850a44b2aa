import Foundation
import Glibc
import XCTest

/// Issue 25, items 6 and 7: an import reads no source over its size limit, stops hashing when
/// it is cancelled (the client goes, or SIGTERM), and a pipe's copy stops at the limit and
/// keeps free space on the data directory's disk. The limits go through environment variables,
/// which a daemon without them ignores, so each test shows the behaviour, not an unknown flag.
final class ImportSourceLimitsTests: XCTestCase {
    /// A sparse file of `bytes` (no disk space used) named `name` in the harness's folder.
    func sparseFile(_ name: String, bytes: Int64, in harness: DaemonHarness) throws -> URL {
        let file = harness.directory.appendingPathComponent(name)
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
        XCTAssertEqual(truncate(file.path, off_t(bytes)), 0, String(cString: strerror(errno)))
        return file
    }

    func lockAndLeftovers(of region: String, in harness: DaemonHarness) -> [String] {
        let regions = harness.dataDirectory.appendingPathComponent("regions").path
        let passed = ((try? FileManager.default.contentsOfDirectory(atPath: harness.dataDirectory.path)) ?? [])
            .filter { $0.hasPrefix(PassedFilesImportTests.PassedFolder.prefix) }
        return passed + ((try? FileManager.default.contentsOfDirectory(atPath: regions)) ?? []).filter { $0.hasPrefix(".\(region).") }
    }

    /// 20 GiB of OSM (past the default 16 GiB) and a 3 GiB GTFS zip (past `gtfs_max_feed_mb`'s
    /// 2048) are refused by their sizes; hashing the first took 121 s before.
    func testASourceOverItsSizeLimitIsRefusedByItsSizeBeforeAnyOfItIsRead() throws {
        let harness = try startDaemon()
        let big = try sparseFile("big.osm.pbf", bytes: 20 << 30, in: harness)
        let refused = try harness.umctl(["region", "import", "big", "--osm", big.path])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\(big.path) is 20480 MiB, more than 16384 MiB, the limit for an OSM file (setting osm_max_mb)"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("checking sources"), "nothing was hashed: \(refused.stderr)")

        let tokyo = try SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671).writeOSM(in: harness.directory)
        let feed = try sparseFile("huge-feed.zip", bytes: 3 << 30, in: harness)
        let feedRefused = try harness.umctl(["region", "import", "tokyo", "--osm", tokyo.path, "--gtfs", feed.path])
        XCTAssertEqual(feedRefused.status, 1, feedRefused.stderr)
        XCTAssertTrue(feedRefused.stderr.contains("\(feed.path) is 3072 MiB, more than 2048 MiB, the limit for a GTFS feed (setting gtfs_max_feed_mb)"), feedRefused.stderr)
        XCTAssertEqual(lockAndLeftovers(of: "big", in: harness) + lockAndLeftovers(of: "tokyo", in: harness), [])
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.count, 0)
    }

    /// Starts importing a sparse terabyte (under a raised limit) and returns its client once the
    /// import reads it.
    func startHashingATerabyte(_ harness: DaemonHarness) throws -> (client: Process, stderr: Pipe) {
        let huge = try sparseFile("huge.osm.pbf", bytes: 1 << 40, in: harness)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        client.arguments = ["region", "import", "huge", "--osm", huge.path, "--socket", harness.socketPath]
        let output = Pipe()
        client.standardOutput = FileHandle.nullDevice
        client.standardError = output  // progress, one line per update
        try client.run()
        var seen = ""
        while !seen.contains("checking sources") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        XCTAssertTrue(seen.contains("checking sources"), seen)
        return (client, output)
    }

    static let terabyteAllowed = ["USEFULMAP_OSM_MAX_MB": "2000000"]

    func testAnImportWhoseClientGoesWhileItHashesStopsAndFreesTheRegion() throws {
        let harness = try startDaemon(environment: Self.terabyteAllowed)
        let (client, _) = try startHashingATerabyte(harness)
        XCTAssertTrue(lockAndLeftovers(of: "huge", in: harness).contains(".huge.lock"), "the import holds the region while it hashes")
        kill(client.processIdentifier, SIGKILL)  // as Ctrl-C
        client.waitUntilExit()
        // Hashing the whole terabyte would take the better part of an hour.
        for _ in 0..<1_200 where !lockAndLeftovers(of: "huge", in: harness).isEmpty { usleep(25_000) }
        XCTAssertEqual(lockAndLeftovers(of: "huge", in: harness), [], "the import stopped and let the region go")
        XCTAssertTrue(harness.log.contains("cancelled"), harness.log)
    }

    /// The documented stop: running requests are cancelled after the grace and answer
    /// `cancelled`; an import that kept hashing never answered and was cut off.
    func testSIGTERMWhileAnImportHashesAnswersCancelledAndExitsCleanly() throws {
        let harness = try startDaemon(extraArguments: ["--shutdown-grace", "0"], environment: Self.terabyteAllowed, assertingCleanExit: false)
        let (client, stderr) = try startHashingATerabyte(harness)
        XCTAssertEqual(harness.stop(), 0, harness.log)
        client.waitUntilExit()
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(client.terminationStatus, 1, said)
        XCTAssertTrue(said.contains("the request was cancelled"), said)
        XCTAssertEqual(lockAndLeftovers(of: "huge", in: harness), [])
    }

    /// `--osm <(head -c 100000000 /dev/zero)` under a 4 MiB limit: the copy stops at the limit,
    /// the writer is cut off, nothing is left; `--osm /dev/zero` the same.
    func testAPipesCopyStopsAtTheSourceSizeLimit() throws {
        let harness = try startDaemon(environment: ["USEFULMAP_OSM_MAX_MB": "4"])
        let pipe = harness.directory.appendingPathComponent("zeros").path
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        let writerStatus = harness.directory.appendingPathComponent("writer-status").path
        let script = "(head -c 100000000 /dev/zero > '\(pipe)'; echo $? > '\(writerStatus)') & "
            + "'\(DaemonHarness.umctl)' region import zeros --osm '\(pipe)' --socket '\(harness.socketPath)'; status=$?; wait; exit $status"
        let refused = try DaemonHarness.run("/bin/sh", ["-c", script], in: harness.directory)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\(pipe) (not a regular file, so copied) gave more than 4 MiB, the limit for an OSM file (setting osm_max_mb)"), refused.stderr)
        let written = try String(contentsOfFile: writerStatus, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotEqual(written, "0", "the writer was cut off, not read to its end")
        XCTAssertEqual(lockAndLeftovers(of: "zeros", in: harness), [], "the copy is removed")

        // The reproduction: /dev/zero itself, endless, filled the data disk at 600 MiB/s.
        let endless = try harness.umctl(["region", "import", "zeros", "--osm", "/dev/zero"])
        XCTAssertEqual(endless.status, 1, endless.stderr)
        XCTAssertTrue(endless.stderr.contains("/dev/zero (not a regular file, so copied) gave more than 4 MiB"), endless.stderr)
        XCTAssertEqual(lockAndLeftovers(of: "zeros", in: harness), [])
    }

    /// A copy that would leave less than `min_free_mb` free is refused (here the setting asks
    /// for more than the disk has), like SQLite's disk-full answer: nothing is kept.
    func testAPipesCopyKeepsTheFreeSpaceHeadroomOfTheDataDisk() throws {
        let harness = try makeDaemon()
        var disk = statvfs()
        XCTAssertEqual(statvfs(harness.dataDirectory.path, &disk), 0)
        let freeMiB = (Int64(disk.f_bavail) * Int64(disk.f_frsize)) >> 20
        try harness.start(environment: ["USEFULMAP_MIN_FREE_MB": String(freeMiB + 1024)])
        defer { XCTAssertEqual(harness.stop(), 0, harness.log) }
        let osm = try SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671).writeOSM(in: harness.directory)
        let pipe = harness.directory.appendingPathComponent("streets").path
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        let script = "cat '\(osm.path)' > '\(pipe)' & "
            + "'\(DaemonHarness.umctl)' region import tokyo --osm '\(pipe)' --socket '\(harness.socketPath)'; status=$?; wait; exit $status"
        let refused = try DaemonHarness.run("/bin/sh", ["-c", script], in: harness.directory)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("copying \(pipe) (not a regular file) would leave less than \(freeMiB + 1024) MiB free")
                      && refused.stderr.contains("min_free_mb"), refused.stderr)
        XCTAssertEqual(lockAndLeftovers(of: "tokyo", in: harness), [])
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.count, 0)
    }
}
