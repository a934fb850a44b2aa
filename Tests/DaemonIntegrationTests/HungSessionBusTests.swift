import Foundation
import WireProtocol
import XCTest

/// A session bus that accepts connections and never answers (a stopped dbus-daemon, a wedged
/// socket) costs a reminder its desktop notification, not its `reminder` event, and does not
/// hold up a shutdown: the connection's authentication and every call are bounded.
final class HungSessionBusTests: XCTestCase {
    func testAReminderReachesWatchAndSIGTERMStopsCleanlyWhileTheBusNeverAnswers() throws {
        let harness = try makeDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let socket = harness.directory.appendingPathComponent("hung-bus").path
        // Accepts every connection and keeps it open, reading nothing and writing nothing.
        let bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        bus.arguments = ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(64); print("ready", flush=True)
            held = []
            while True:
                held.append(s.accept()[0])
            """, socket]
        let ready = Pipe()
        bus.standardOutput = ready
        try bus.run()
        defer { bus.terminate(); bus.waitUntilExit() }
        _ = ready.fileHandleForReading.availableData  // "ready": listening
        try harness.start(extraArguments: ["--clock-start", DesktopNotificationTests.clockStart],
                          environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"])
        let pinned = try PendingUpdateTests.pinnedPlan(harness, title: "to Hervanta")
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        _ = try harness.json(["plan", "remind", pinned.id, "on", "--lead", "90m"])
        let events = try watch.events(until: { events in events.contains { $0["kind"] == .string("reminder") } })
        let reminder = try XCTUnwrap(events.first { $0["kind"] == .string("reminder") }, "no reminder event: \(events) \(harness.log.suffix(3000))")
        XCTAssertEqual(reminder["shown"], .bool(false), "the bus never answered, so it was not shown")
        XCTAssertEqual(harness.stop(), 0, "SIGTERM stops it cleanly with the bus still hung")
    }
}
