import Foundation
import Glibc
import WireProtocol
import XCTest

/// umctl starts in milliseconds because it loads neither Foundation nor ICU (issue 26); it reads
/// the machine's zone itself (`TZ`, /etc/localtime): the times are the C library's, and a zone
/// with no name is named by its offset.
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

    /// A status bar's `umctl status` costs one round trip: the hello goes with the request in
    /// one write, and the hello's answer is still read first.
    func testStatusGoesWithItsHelloInOneWrite() throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = try CannedDaemon(in: directory, answer: Self.answering)
        defer { daemon.stop() }
        let status = try DaemonHarness.run(DaemonHarness.umctl, ["status", "--socket", daemon.socketPath], in: directory)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.hasPrefix("usefulmapd 0.1.0 (protocol \(ProtocolVersion.current))"), status.stdout)
        XCTAssertEqual(daemon.methods, ["hello", "status"])
        let first = try XCTUnwrap(daemon.reads.first)
        XCTAssertEqual(first.split(separator: 0x0A).count, 2, "the first read held only \(String(decoding: first, as: UTF8.self))")
    }

    /// A daemon that refuses the protocol version is answered with its refusal, whether the
    /// request went with the hello (`status`) or waited for it (`place remove`, a change, is
    /// then never sent).
    func testARefusedHelloIsTheErrorAndAChangeIsNotSent() throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refusal = WireError(.unsupportedVersion, "protocol version \(ProtocolVersion.current) is not supported: this usefulmapd speaks 9...9")
        let daemon = try CannedDaemon(in: directory) { request in
            request.method == "hello" ? WireCodec.errorAnswer(id: request.id, error: refusal) : Self.answering(request)
        }
        defer { daemon.stop() }
        for arguments in [["status"], ["place", "remove", "Home"]] {
            let run = try DaemonHarness.run(DaemonHarness.umctl, arguments + ["--socket", daemon.socketPath], in: directory)
            XCTAssertEqual(run.status, 1, "\(arguments): \(run.stdout)")
            XCTAssertEqual(run.stderr, "umctl: \(refusal.message)\n", "\(arguments)")
            XCTAssertEqual(run.stdout, "", "\(arguments)")
        }
        XCTAssertEqual(daemon.methods, ["hello", "status", "hello"], "place.remove reached a daemon that refused the version")
    }

    /// The canned daemon's answers: a hello, and a status for anything else.
    private static func answering(_ request: IncomingRequest) -> Data {
        let id = request.id ?? .number(0)
        if request.method == "hello" {
            return (try? WireCodec.resultAnswer(id: id, result: HelloDocument(
                server: "usefulmapd", version: "0.1.0", protocolVersion: ProtocolVersion.current,
                oldestSupportedVersion: ProtocolVersion.current))) ?? Data()
        }
        return (try? WireCodec.resultAnswer(id: id, result: StatusDocument(
            version: "0.1.0", protocolVersion: ProtocolVersion.current, databasePath: "/d/usefulmap.sqlite", dataDirectory: "/d",
            socketPath: "/d/usefulmapd.sock", uptimeS: 5, regions: [],
            counters: CountersDocument(requests: 2, routingQueries: RoutingQueryCounts(walk: 0, transit: 0, car: 0), plansRecomputed: 0)))) ?? Data()
    }

    /// Kathmandu (+05:45, no summer time) shows an offset no whole-hour mistake could give.
    func testMachineTimesAreInTheZoneTZNames() async throws {
        let harness = try startDaemon()
        let location = try await harness.client().call(Endpoints.locationSet, Params.LocationSet(lat: 61.5, lon: 23.7))
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
    func testMachineTimesFromAZoneWithNoNameAreNamedByTheirOffset() async throws {
        let harness = try startDaemon()
        let location = try await harness.client().call(Endpoints.locationSet, Params.LocationSet(lat: 61.5, lon: 23.7))
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
