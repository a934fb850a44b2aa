import Foundation
import Glibc
import WireProtocol
import XCTest

/// A gpsd that misbehaves, written in the test (`FakeGpsd`): a receiver whose date is wrong,
/// and a gpsd that drops every connection. Through the real daemon and umctl.
final class GpsdMisbehaviourTests: XCTestCase {
    static let center = (lat: 61.49780, lon: 23.76100)

    static func wireTime(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    func testAFixFromTheFarFutureIsRefusedAndTheNextCurrentFixIsTaken() async throws {
        let gpsd = try FakeGpsd { connection, isStopping in
            _ = FakeGpsd.send(FakeGpsd.versionLine, to: connection)
            _ = FakeGpsd.send(FakeGpsd.positionLine(lat: 10, lon: 10, accuracy: 5, time: "9999-12-31T23:59:59.000Z"), to: connection)
            _ = FakeGpsd.send(FakeGpsd.positionLine(lat: Self.center.lat, lon: Self.center.lon, accuracy: 5,
                                                    time: Self.wireTime(Date())), to: connection)
            FakeGpsd.drain(connection, until: isStopping)
        }
        defer { gpsd.stop() }
        let harness = try startDaemon(extraArguments: ["--gpsd", gpsd.address], assertingCleanExit: false)

        try waitUntil("the daemon has read both fixes") {
            let ignored = try location(harness).ignored.reduce(0) { $0 + $1.count }
            let accepted = try location(harness).accepted.reduce(0) { $0 + $1.count }
            return ignored + accepted >= 2
        }
        let status = try location(harness)
        XCTAssertEqual(status.ignored, [CountDocument(name: "in_the_future", count: 1)])
        XCTAssertEqual(status.accepted, [CountDocument(name: "gpsd", count: 1)])
        let shown = try await harness.client().call(Endpoints.locationShow, Params.Empty())
        XCTAssertEqual(shown.lat, Self.center.lat, accuracy: 1e-9, "the current fix is where the receiver is now")
        XCTAssertEqual(shown.source, "gpsd")
    }

    func testAManualLocationWinsOverAGpsdFixStampedAheadOfTheClock() async throws {
        // 50 s ahead: within the minute a receiver's clock may be off, so it is taken.
        let gpsd = try FakeGpsd { connection, isStopping in
            _ = FakeGpsd.send(FakeGpsd.versionLine, to: connection)
            _ = FakeGpsd.send(FakeGpsd.positionLine(lat: Self.center.lat, lon: Self.center.lon, accuracy: 5,
                                                    time: Self.wireTime(Date().addingTimeInterval(50))), to: connection)
            FakeGpsd.drain(connection, until: isStopping)
        }
        defer { gpsd.stop() }
        let harness = try startDaemon(extraArguments: ["--gpsd", gpsd.address], assertingCleanExit: false)
        try waitUntil("the gpsd fix is taken") { try location(harness).currentFrom == "gpsd" }

        let set = try harness.umctl(["location", "set", "61.5,23.8"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("current fix from manual"), set.stdout)
        let shown = try await harness.client().call(Endpoints.locationShow, Params.Empty())
        XCTAssertEqual(shown.lat, 61.5, accuracy: 1e-9)
        XCTAssertEqual(shown.source, "manual")
    }

    func testAGpsdThatKeepsDroppingTheConnectionIsRetriedLessAndLessOftenAndLoggedOnce() throws {
        // Like a gpsd that greets and then drops every client.
        let gpsd = try FakeGpsd { connection, _ in _ = FakeGpsd.send(FakeGpsd.versionLine, to: connection) }
        defer { gpsd.stop() }
        let harness = try startDaemon(extraArguments: ["--gpsd", gpsd.address], assertingCleanExit: false)
        try waitUntil("the daemon has reconnected twice") { gpsd.connections >= 3 }
        // Backing off from 0.25 s, doubling, the next 6 s hold about 3 attempts more; retrying
        // at the first wait each time would hold over 20.
        usleep(6_000_000)
        let connections = gpsd.connections
        XCTAssertLessThanOrEqual(connections, 8, "reconnects back off")
        XCTAssertLessThanOrEqual(try location(harness).connections ?? 0, connections)

        // One line when it connected, one when it started failing; the retries are at debug.
        let lines = harness.log.split(separator: "\n").filter { line in
            line.contains("gpsd=\(gpsd.address)") && !line.hasPrefix("<7>")
        }
        XCTAssertEqual(lines.count, 2, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.first?.contains("connected to gpsd") == true, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.last?.hasPrefix("<4>") == true, "a warning that it fails: \(lines.joined(separator: "\n"))")
    }

    private func location(_ harness: DaemonHarness) throws -> LocationStatusDocument {
        let client = try harness.client()
        guard let location = try runToEnd({ try await client.call(Endpoints.status, Params.Empty()).location }) else {
            throw HarnessError("status has no location")
        }
        return location
    }

    private func waitUntil(_ what: String, seconds: Double = 30, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            usleep(100_000)
        }
        throw HarnessError("gave up after \(Int(seconds)) s waiting until \(what)")
    }
}
