import Foundation
import Glibc
import WireProtocol
import XCTest

/// The location from a real gpsd (driven by gpsfake), geofences around saved places, and the
/// visits they record, through the real daemon and umctl.
final class GpsdLocationTests: XCTestCase {
    /// Keskustori; the fence "Home" is around it.
    static let center = (lat: 61.49780, lon: 23.76100)

    override func setUpWithError() throws {
        if let reason = GpsFake.unavailableReason { throw XCTSkip(reason) }
    }

    /// Fixes far outside every fence: gpsd needs a few sentences to recognise the receiver, and
    /// the daemon may be waiting out its reconnection backoff when gpsfake starts feeding.
    static func leadIn(_ count: Int = 100) -> [NMEALog.Fix] {
        Array(repeating: NMEALog.Fix(north: 1_000, accuracy: 9.5), count: count)
    }

    /// The last fix of a log, at a place nothing else is: once the daemon has it, it has read everything.
    static let marker = NMEALog.Fix(north: 777, accuracy: 9.5)

    func testAWalkThatApproachesWaitsInsideAndLeavesGivesOneArrivedAndOneLeftAndJitterGivesNone() throws {
        let port = try GpsFake.freePort()
        let harness = try startDaemon(extraArguments: ["--gpsd", "127.0.0.1:\(port)"])
        let saved = try harness.umctl(["place", "save", "Home", "\(Self.center.lat),\(Self.center.lon)", "--geofence"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertTrue(saved.stdout.contains("geofence on, 80 m in / 120 m out, unknown"), saved.stdout)
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }

        let fix = { (north: Double, accuracy: Double) in NMEALog.Fix(north: north, accuracy: accuracy) }
        let approach = [600, 400, 250, 150].map { fix($0, 9.5) }
        let jitterOutside = [95, 105, 100, 110, 90, 100, 115, 85].map { fix($0, 9.5) }
        let inaccurateInside = [fix(10, 50)]  // inside, but ±50 m: ignored
        let inside = [60, 30, 10, 10, 20, 15].map { fix($0, 9.5) }
        let jitterInside = [95, 110, 100, 85, 105].map { fix($0, 9.5) }
        let leave = [150, 300, 500].map { fix($0, 9.5) }
        let fixes = Self.leadIn() + approach + jitterOutside + inaccurateInside + inside + jitterInside + leave
            + [Self.marker, Self.marker]
        // One fix a second, fed twenty times as fast: stamped so that the last is 30 s ahead of
        // now, since a fix over a minute ahead of the daemon's clock is refused.
        let log = try NMEALog.write(fixes, center: Self.center, start: Date().addingTimeInterval(30 - Double(fixes.count)),
                                    to: harness.directory.appendingPathComponent("walk.nmea"))
        let gps = try GpsFake(log: log, port: port, cycle: 0.05, directory: harness.directory)
        defer { gps.stop() }
        try waitForLocation(harness, at: NMEALog.latitude(Self.marker, center: Self.center), gps: gps)

        let events = try watch.events(until: { $0.contains { $0["kind"] == .string("left") } })
        let visits = events.filter { ["arrived", "left"].contains($0["kind"]?.stringValue ?? "") }
        XCTAssertEqual(visits.map { $0["kind"]?.stringValue }, ["arrived", "left"], "\(visits)")
        XCTAssertEqual(visits.map { $0["place"] }, [.string("Home"), .string("Home")])
        // Arrived on the first accurate fix inside 80 m (60 m north), not on the ±50 m one before it.
        let arrival = try XCTUnwrap(visits.first?["fix"])
        XCTAssertEqual(try XCTUnwrap(arrival["lat"]?.numberValue), NMEALog.latitude(fix(60, 9.5), center: Self.center), accuracy: 1e-5)
        XCTAssertLessThanOrEqual(try XCTUnwrap(arrival["accuracy_m"]?.numberValue), 30)
        // Left on the first fix beyond 120 m (150 m north), not in the jitter around 100 m.
        XCTAssertEqual(try XCTUnwrap(visits.last?["fix"]?["lat"]?.numberValue),
                       NMEALog.latitude(fix(150, 9.5), center: Self.center), accuracy: 1e-5)

        let status = try harness.json(["status"])
        XCTAssertEqual(status["location"]?["source"], .string("gpsd"))
        XCTAssertEqual(status["location"]?["current_from"], .string("gpsd"))
        let ignored = status["location"]?["ignored"]?.arrayValue ?? []
        XCTAssertGreaterThanOrEqual(ignored.first { $0["name"] == .string("accuracy_over_30m") }?["count"]?.numberValue ?? 0, 1,
                                    "the ±50 m fix is counted: \(status)")
        XCTAssertEqual(status["location"]?["fences"], .array([.object(["place": .string("Home"), "state": .string("outside")])]))
        XCTAssertTrue(harness.log.contains("gpsd fix ignored") && harness.log.contains("reason=accuracy_over_30m"),
                      "ignored fixes are logged at debug")
        let shown = try harness.umctl(["location", "show"])
        XCTAssertTrue(shown.stdout.contains("by gpsd"), shown.stdout)

        // The visits history keeps both, newest first, and survives a restart; the fence is unknown again.
        let history = try XCTUnwrap(try harness.json(["history", "visits"])["entries"]?.arrayValue)
        XCTAssertEqual(history.map { $0["event"]?.stringValue }, ["left", "arrived"])
        gps.stop()
        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start()
        XCTAssertEqual(try harness.json(["history", "visits"])["entries"]?.arrayValue?.count, 2, "visits survive a restart")
        let fence = try harness.json(["place", "fence", "Home", "on"])
        XCTAssertEqual(fence["geofence"]?["state"], .string("unknown"), "after a restart the fence is unknown again")
        let text = try harness.umctl(["history", "visits"])
        XCTAssertTrue(text.stdout.contains("left") && text.stdout.contains("arrived") && text.stdout.contains("Home"), text.stdout)
    }

    func testTheDaemonReconnectsWhenGpsdComesBackAndServesRequestsMeanwhile() throws {
        let port = try GpsFake.freePort()
        // No gpsd yet: the daemon starts and serves all the same.
        let harness = try startDaemon(extraArguments: ["--gpsd", "127.0.0.1:\(port)"])
        var status = try harness.json(["status"])
        XCTAssertEqual(status["location"]?["connected"], .bool(false))
        let manual = try harness.umctl(["location", "set", "61.4950,23.7700", "--accuracy", "5"])
        XCTAssertEqual(manual.status, 0, manual.stderr)
        XCTAssertTrue(manual.stdout.contains("current fix from manual"), manual.stdout)

        let first = NMEALog.Fix(north: 321, accuracy: 9.5)
        var gps = try GpsFake(log: try NMEALog.write(Self.leadIn(40) + [first, first], center: Self.center, start: Date().addingTimeInterval(1),
                                                     to: harness.directory.appendingPathComponent("first.nmea")),
                              port: port, cycle: 0.05, directory: harness.directory)
        defer { gps.stop() }
        try waitForLocation(harness, at: NMEALog.latitude(first, center: Self.center), gps: gps)
        let set = try harness.umctl(["location", "set", "61.4950,23.7700"])
        XCTAssertTrue(set.stdout.contains("current fix from manual"), "a manual fix always wins, though gpsd's is stamped later: \(set.stdout)")

        try gps.killGpsd()
        try waitUntil("the daemon notices gpsd is gone") { try harness.json(["status"])["location"]?["connected"] == .bool(false) }
        // Requests are served while gpsd is away.
        for _ in 0..<3 {
            XCTAssertEqual(try harness.umctl(["place", "list"]).status, 0)
            XCTAssertEqual(try harness.umctl(["location", "show"]).status, 0)
        }

        // The daemon waits longer after each failed attempt (up to a minute): the second log
        // repeats, so whenever it comes back it reads the fix (its times stay after the first's).
        let second = NMEALog.Fix(north: 654, accuracy: 9.5)
        gps = try GpsFake(log: try NMEALog.write(Self.leadIn(40) + [second, second], center: Self.center, start: Date().addingTimeInterval(1),
                                                 to: harness.directory.appendingPathComponent("second.nmea")),
                          port: port, cycle: 0.05, repeating: true, directory: harness.directory)
        try waitForLocation(harness, at: NMEALog.latitude(second, center: Self.center), gps: gps)
        status = try harness.json(["status"])
        XCTAssertEqual(status["location"]?["connected"], .bool(true))
        XCTAssertGreaterThanOrEqual(status["location"]?["connections"]?.numberValue ?? 0, 2, "it reconnected: \(status)")
        XCTAssertTrue(harness.log.contains("connected to gpsd"), harness.log)
    }

    // MARK: - Helpers

    /// Waits (bounded) until the daemon's current location is at `latitude`, read from gpsd.
    func waitForLocation(_ harness: DaemonHarness, at latitude: Double, gps: GpsFake) throws {
        try waitUntil("the daemon reads the fix at \(latitude) from gpsd (gpsfake: \(gps.log))", seconds: 90) {
            let shown = try harness.umctl(["location", "show", "--json"])
            guard shown.status == 0, let value = try? JSONParser.parse(Data(shown.stdout.utf8)),
                  let lat = value["lat"]?.numberValue else { return false }
            return abs(lat - latitude) < 1e-6 && value["source"] == .string("gpsd")
        }
    }

    func waitUntil(_ what: String, seconds: Double = 60, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            usleep(100_000)
        }
        throw HarnessError("gave up after \(Int(seconds)) s waiting until \(what)")
    }
}

/// `umctl watch --json` running into a file, read back as the events' params.
final class WatchRecorder {
    let process = Process()
    let output: URL

    init(_ harness: DaemonHarness) throws {
        output = harness.directory.appendingPathComponent("watch-\(UUID().uuidString.prefix(4)).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        process.arguments = ["watch", "--json", "--socket", harness.socketPath]
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        // Subscribed once the daemon counts the watcher.
        for _ in 0..<200 where (try? harness.counters().watchers) ?? 0 < 1 { usleep(25_000) }
    }

    /// Every event so far.
    var events: [JSONValue] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONParser.parse(Data($0.utf8))["params"] ?? nil }
    }

    /// Waits (bounded) until `done` holds for the events, then returns them.
    func events(until done: ([JSONValue]) -> Bool, seconds: Double = 60) throws -> [JSONValue] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let seen = events
            if done(seen) { return seen }
            usleep(100_000)
        }
        return events
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
        }
    }
}
