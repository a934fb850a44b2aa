import Foundation
import Glibc
import WireProtocol
import XCTest

/// umctl starts in milliseconds because it loads neither Foundation nor ICU (issue 26); the
/// machine's zone it then reads itself (`TZ`, /etc/localtime) gives the times Foundation gave.
final class ThinClientTests: XCTestCase {
    func testUmctlLinksNeitherFoundationNorICU() throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ldd = try DaemonHarness.run("/usr/bin/ldd", [DaemonHarness.umctl], in: directory)
        XCTAssertEqual(ldd.status, 0, ldd.stderr)
        XCTAssertTrue(ldd.stdout.contains("libc.so"), "ldd listed nothing: \(ldd.stdout)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libicu"] {
            XCTAssertFalse(ldd.stdout.contains(library), "umctl links \(library):\n\(ldd.stdout)")
        }
    }

    /// Kathmandu (+05:45, no summer time) shows an offset no whole-hour mistake could give.
    func testMachineTimesAreInTheZoneTZNames() throws {
        let harness = try startDaemon()
        let location = try harness.client().call(Endpoints.locationSet, Params.LocationSet(lat: 61.5, lon: 23.7))
        let at = try XCTUnwrap(WireTime.date(from: location.at), "\(location)")
        let kathmandu = try XCTUnwrap(TimeZone(identifier: "Asia/Kathmandu"))
        let clock = WireTime.string(from: at, timeZone: kathmandu).prefix(16).replacingOccurrences(of: "T", with: " ")

        for tz in ["Asia/Kathmandu", ":Asia/Kathmandu"] {
            let shown = try DaemonHarness.run(DaemonHarness.umctl, ["location", "show", "--socket", harness.socketPath],
                                              in: harness.directory, environment: ["TZ": tz])
            XCTAssertEqual(shown.status, 0, shown.stderr)
            XCTAssertTrue(shown.stdout.contains(", set \(clock) Asia/Kathmandu"), "TZ=\(tz): \(shown.stdout)")
        }
        let utc = try DaemonHarness.run(DaemonHarness.umctl, ["location", "show", "--socket", harness.socketPath],
                                        in: harness.directory, environment: ["TZ": "Etc/UTC"])
        let utcClock = WireTime.string(from: at, timeZone: try XCTUnwrap(TimeZone(identifier: "UTC"))).prefix(16)
            .replacingOccurrences(of: "T", with: " ")
        XCTAssertTrue(utc.stdout.contains(", set \(utcClock) UTC"), utc.stdout)
    }

    /// A zone file with no name (a copy outside the zoneinfo folder, as a copied /etc/localtime
    /// is) or a `TZ` rule: the times are the C library's, and so is the offset they are named by,
    /// not "UTC".
    func testMachineTimesFromAZoneWithNoNameAreNamedByTheirOffset() throws {
        let harness = try startDaemon()
        let location = try harness.client().call(Endpoints.locationSet, Params.LocationSet(lat: 61.5, lon: 23.7))
        let at = try XCTUnwrap(WireTime.date(from: location.at), "\(location)")
        let clock = WireTime.string(from: at, timeZone: try XCTUnwrap(TimeZone(identifier: "Asia/Kathmandu"))).prefix(16)
            .replacingOccurrences(of: "T", with: " ")
        let copy = harness.directory.appendingPathComponent("localtime")
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Kathmandu", toPath: copy.path)

        for tz in [":" + copy.path, "<+0545>-5:45"] {
            let shown = try DaemonHarness.run(DaemonHarness.umctl, ["location", "show", "--socket", harness.socketPath],
                                              in: harness.directory, environment: ["TZ": tz])
            XCTAssertEqual(shown.status, 0, shown.stderr)
            XCTAssertTrue(shown.stdout.contains(", set \(clock) UTC+05:45"), "TZ=\(tz): \(shown.stdout)")
        }
    }
}
