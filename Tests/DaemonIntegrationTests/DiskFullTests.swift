import Foundation
import Glibc
import XCTest

/// Issue 16, item 6: with the disk full, a failed request changes nothing (a plan and its
/// history entry are one transaction; an edit is stored only when it is answered).
final class DiskFullTests: XCTestCase {
    /// The user database's full logical content (schema and rows), read through its WAL.
    private func dump(_ database: String, in directory: URL) throws -> String {
        let result = try DaemonHarness.run("/usr/bin/sqlite3", [database, ".dump"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    /// Runs `body` against a daemon whose data directory is a small tmpfs (a disk that can be
    /// filled), with a small region imported; skips where no tmpfs can be mounted.
    private func onASmallDisk(_ body: (DaemonHarness, SmallRegion) throws -> Void) throws {
        let harness = try makeDaemon()
        let data = harness.dataDirectory.path
        let mounted = try DaemonHarness.run("/bin/mount", ["-t", "tmpfs", "-o", "size=48m,mode=0700", "tmpfs", data],
                                            in: harness.directory)
        guard mounted.status == 0 else {
            throw XCTSkip("needs a small tmpfs for a full disk, and mounting one failed (tests run as root in CI): \(mounted.stderr)")
        }
        defer { _ = try? DaemonHarness.run("/bin/umount", ["-l", data], in: harness.directory) }
        try harness.start()
        defer { XCTAssertEqual(harness.stop(), 0) }
        let region = SmallRegion(name: "montevideo", latitude: -34.9011, longitude: -56.1645)
        let imported = try harness.umctl(["region", "import", "montevideo", "--osm", try region.writeOSM(in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        try body(harness, region)
    }

    /// Writes to `fd` until the disk is full.
    private func fillTheDisk(through fd: Int32) {
        let chunk = [UInt8](repeating: 0xA5, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        XCTAssertEqual(errno, ENOSPC)
    }

    /// Issue 44, item 9: requests that only read still answer: `search` and `compare` write
    /// their history beside the answer, and that write is skipped (and counted), not failed.
    func testSearchAndCompareAnswerOnAFullDiskAndCountTheHistoryTheyCouldNotRecord() throws {
        try onASmallDisk { harness, region in
            let fd = open(harness.dataDirectory.appendingPathComponent("filler").path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            XCTAssertGreaterThanOrEqual(fd, 0)
            defer { close(fd) }
            fillTheDisk(through: fd)
            let search = try harness.umctl(["search", "street"])
            XCTAssertEqual(search.status, 0, "search answers: \(search.stderr)")
            let compare = try harness.umctl(["compare", region.southWest, region.northEast, "--at", "2026-05-04T09:00"])
            XCTAssertEqual(compare.status, 0, "compare answers: \(compare.stderr)")
            XCTAssertEqual(try harness.counters().historyNotRecorded, 2, "both history entries skipped, and counted")
            let save = try harness.umctl(["place", "save", "Home", region.northEast])
            XCTAssertNotEqual(save.status, 0, "a change still fails plainly")
            XCTAssertTrue(save.stderr.contains("disk"), save.stderr)
        }
    }

    func testEveryRequestThatFailsOnAFullDiskLeavesTheDatabaseAsItWasAndSaysSoPlainly() throws {
        try onASmallDisk { harness, region in try everyFailedRequestChangesNothing(harness, region) }
    }

    private func everyFailedRequestChangesNothing(_ harness: DaemonHarness, _ region: SmallRegion) throws {
        let data = harness.dataDirectory.path
        let first = try harness.json(["plan", "new", region.southWest, region.northEast, "--mode", "walk", "--at", "2026-05-04T09:00"])
        let id = String(Int(try XCTUnwrap(first["id"]?.numberValue)))

        // For each request: fill the disk, then give space back a page at a time, so the
        // request fails at first, then on the way gets only part of what it needs, then succeeds.
        let filler = harness.dataDirectory.appendingPathComponent("filler").path
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }

        let database = harness.dataDirectory.appendingPathComponent("usefulmap.sqlite").path
        let requests: [[String]] = [
            ["plan", "new", region.southWest, region.northEast, "--mode", "car", "--at", "2026-05-04T09:00"],
            ["plan", "mode", id, "1", "car"],
            ["plan", "pace", id, "slow"],
            ["plan", "insert", id, "--after", "1", SmallRegion.text(region.point(row: 2, column: 2))],
            ["place", "save", "Home", region.northEast],
        ]
        var failures = 0, successes = 0, plansCreated = 0
        for request in requests {
            fillTheDisk(through: fd)
            var succeeded = false
            for step in 0..<300 where !succeeded {
                let before = try dump(database, in: harness.directory)
                let plansBefore = try harness.json(["plan", "list"])["plans"]?.arrayValue?.count ?? 0
                let result = try harness.umctl(request)
                if result.status == 0 {
                    succeeded = true
                    successes += 1
                    let created = request.prefix(2) == ["plan", "new"] ? 1 : 0
                    plansCreated += created
                    XCTAssertEqual(try harness.json(["plan", "list"])["plans"]?.arrayValue?.count, plansBefore + created)
                    continue
                }
                failures += 1
                XCTAssertEqual(result.status, 1, "\(request): \(result.stderr)")
                XCTAssertEqual(try dump(database, in: harness.directory), before,
                               "step \(step): the failed `umctl \(request.joined(separator: " "))` changed the database: \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("the disk holding the data directory is full"), result.stderr)
                for leak in ["usefulmap.sqlite", data, "INSERT", "UPDATE", "DELETE"] {
                    XCTAssertFalse(result.stderr.contains(leak), "no path or SQL for the client: \(result.stderr)")
                }
                var status = stat()
                XCTAssertEqual(fstat(fd, &status), 0)
                XCTAssertEqual(ftruncate(fd, max(0, status.st_size - 4096)), 0)
            }
            XCTAssertTrue(succeeded, "\(request) succeeds once there is space")
        }
        XCTAssertGreaterThan(failures, 0, "the disk was full: some requests must have failed")
        XCTAssertGreaterThan(successes, 0, "with space back, requests succeed again")
        // A plan and its route history entry were stored together or not at all.
        let plans = try harness.json(["plan", "list"])["plans"]?.arrayValue?.count ?? 0
        XCTAssertEqual(plans, 1 + plansCreated, "no plan stored by a failed `plan new`")
        XCTAssertTrue(harness.log.contains("disk is full"), "the operator's log has the detail")
    }
}
