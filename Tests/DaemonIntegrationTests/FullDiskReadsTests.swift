import Foundation
import Glibc
import TestSupport
import XCTest

/// On a full disk, requests that only read still answer: `search` and `compare` write their
/// history beside the answer, and that write is skipped (and counted) rather than failing them.
final class FullDiskReadsTests: XCTestCase {
    func testSearchAndCompareAnswerOnAFullDiskAndCountTheHistoryTheyCouldNotRecord() throws {
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

        let fd = open(harness.dataDirectory.appendingPathComponent("filler").path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xA5, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        XCTAssertEqual(errno, ENOSPC)

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
