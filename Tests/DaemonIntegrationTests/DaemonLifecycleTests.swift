import Foundation
import Glibc
import WireProtocol
import XCTest

/// Starting, refusing, stopping: what the daemon does around its socket.
final class DaemonLifecycleTests: XCTestCase {
    func testSecondDaemonOnTheSameSocketIsRefusedAndTheFirstKeepsServing() async throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let second = try harness.launchDaemon()
        second.waitUntilExit()
        XCTAssertEqual(second.terminationStatus, 1)
        XCTAssertTrue(harness.log.contains("already answering"), harness.log)
        await XCTAssertNoThrowAsync(try await harness.client().call(Endpoints.status, Params.Empty()))
        XCTAssertEqual(harness.stop(), 0)
    }

    func testStaleSocketFileIsRemovedAndTheDaemonStarts() throws {
        let harness = try makeDaemon()
        // A socket file nobody listens on, as a crashed daemon leaves behind.
        try FileManager.default.createDirectory(atPath: (harness.socketPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(harness.socketPath.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        close(fd)
        XCTAssertTrue(FileManager.default.fileExists(atPath: harness.socketPath))
        try harness.start()
        XCTAssertTrue(harness.log.contains("removing stale socket"), harness.log)
        XCTAssertEqual(harness.stop(), 0)
    }

    /// `usefulmapd --socket usefulmapd.sock` (a name, no folder) listens in the folder it was
    /// started in; it crashed (session 53, from outside: Foundation's deletingLastPathComponent).
    /// The folder is private, as a socket's must be (`SocketFolder`).
    func testASocketNamedWithoutAFolderIsBoundInTheFolderTheDaemonStartsIn() throws {
        let harness = try makeDaemon()
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: harness.directory.path)
        let daemon = try harness.launchDaemon(extraArguments: ["--socket", "usefulmapd.sock"], in: harness.directory)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGTERM); daemon.waitUntilExit() } }
        let socket = harness.directory.appendingPathComponent("usefulmapd.sock").path
        var status = try DaemonHarness.run(DaemonHarness.umctl, ["status", "--socket", socket], in: harness.directory)
        for _ in 0..<400 where status.status != 0 && daemon.isRunning {
            usleep(25_000)
            status = try DaemonHarness.run(DaemonHarness.umctl, ["status", "--socket", socket], in: harness.directory)
        }
        XCTAssertEqual(status.status, 0, "\(status.stderr)\n\(harness.log.prefix(2_000))")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        XCTAssertEqual(daemon.terminationStatus, 0, String(harness.log.prefix(2_000)))
    }

    func testSocketIsPrivateToItsUser() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let socketMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: harness.socketPath)[.posixPermissions] as? Int)
        let directoryMode = try XCTUnwrap(FileManager.default.attributesOfItem(
            atPath: (harness.socketPath as NSString).deletingLastPathComponent)[.posixPermissions] as? Int)
        XCTAssertEqual(socketMode & 0o777, 0o600)
        XCTAssertEqual(directoryMode & 0o777, 0o700)
        XCTAssertEqual(harness.stop(), 0)
    }

    func testConnectionFromAnotherUserIsRefusedByPeerCredentials() async throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to run a client as another user") }
        let harness = try startDaemon(assertingCleanExit: false)
        // Open the file-system permissions so that only SO_PEERCRED stands in the way.
        chmod(harness.directory.path, 0o755)
        chmod(harness.directory.appendingPathComponent("run").path, 0o755)
        chmod((harness.socketPath as NSString).deletingLastPathComponent, 0o755)
        chmod(harness.socketPath, 0o777)
        // A copy of umctl the other user can run wherever the checkout lives.
        let umctl = harness.directory.appendingPathComponent("umctl")
        try FileManager.default.copyItem(atPath: DaemonHarness.umctl, toPath: umctl.path)
        chmod(umctl.path, 0o755)
        let result = try DaemonHarness.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                                umctl.path, "status", "--socket", harness.socketPath],
                                           in: URL(fileURLWithPath: "/tmp"))
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("answers only that user") || result.stderr.contains("permission_denied")
                      || result.stderr.contains("connection"), result.stderr)
        XCTAssertTrue(harness.log.contains("refused connection from another user"), harness.log)
        XCTAssertTrue(harness.log.contains("uid=65534"), harness.log)
        await XCTAssertNoThrowAsync(try await harness.client().call(Endpoints.status, Params.Empty()), "its own user is still served")
        XCTAssertEqual(harness.stop(), 0)
    }

    func testSIGTERMExitsZeroAndRemovesTheSocket() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        XCTAssertEqual(harness.stop(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.socketPath))
        XCTAssertTrue(harness.log.contains("database closed"), harness.log)
        XCTAssertTrue(harness.log.contains("stopped"), harness.log)
    }

    func testUmctlWithoutADaemonExitsThreeNamingTheSocket() throws {
        let result = try DaemonHarness.run(DaemonHarness.umctl, ["status", "--socket", "/tmp/umit-nothing-here.sock"],
                                           in: URL(fileURLWithPath: "/tmp"))
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("/tmp/umit-nothing-here.sock"), result.stderr)
    }

    func testUmctlFindsTheDaemonAtTheDefaultSocketOfTheRuntimeDirectory() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        // The harness's socket is RUNTIME/usefulmap/usefulmapd.sock, the default layout.
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "USEFULMAP_SOCKET")
        environment["XDG_RUNTIME_DIR"] = harness.directory.appendingPathComponent("run").path
        let result = try DaemonHarness.run(DaemonHarness.umctl, ["status"], in: harness.directory, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(harness.socketPath), result.stdout)
        XCTAssertEqual(harness.stop(), 0)
    }

    func testUnknownFlagIsAUsageErrorNamingIt() throws {
        let result = try DaemonHarness.run(DaemonHarness.usefulmapd, ["--colour", "blue"], in: URL(fileURLWithPath: "/tmp"))
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--colour"), result.stderr)
    }

    func testConfigFileSettingsApplyAndFlagsWin() throws {
        let harness = try makeDaemon()
        let config = harness.directory.appendingPathComponent("usefulmapd.conf")
        try """
        # test config
        socket = \(harness.directory.path)/from-config.sock
        log_level = warning
        """.write(to: config, atomically: true, encoding: .utf8)
        let process = try harness.launchDaemon(extraArguments: ["--config", config.path])
        // --socket on the command line (added by the harness) wins over the file's socket.
        try harness.waitUntilServing(process)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(harness.directory.path)/from-config.sock"))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    /// SIGTERM reaches whichever thread the kernel picks; it must stop the daemon every time
    /// (a dispatch signal source once swallowed it now and then, and the daemon never exited).
    func testEverySIGTERMStopsTheDaemonCleanly() throws {
        for attempt in 1...10 {
            let harness = try makeDaemon()
            let process = try harness.launchDaemon()
            try harness.waitUntilServing(process)
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            XCTAssertFalse(process.isRunning, "attempt \(attempt): still running 30 s after SIGTERM")
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit, "attempt \(attempt)")
            XCTAssertEqual(process.terminationStatus, 0, "attempt \(attempt)")
        }
    }

    func testWatchStreamsEventsAndEndsCleanlyWhenTheDaemonStops() async throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let done = expectation(description: "watch answered")
        let box = ResultBox<WatchEndDocument>()
        let socket = harness.socketPath
        Thread.detachNewThread {
            let result = Result { () throws -> WatchEndDocument in
                let watcher = try WireClient(socketPath: socket)
                return try runToEnd {
                    try await watcher.call(Endpoints.watch, Params.Empty()) { notification in
                        if notification.params["kind"] == .string("location_changed") { box.sawEvent = true }
                    }
                }
            }
            box.value = result
            done.fulfill()
        }
        // Keep making events until the watcher has seen one (it may subscribe after the first).
        let client = try harness.client()
        for _ in 0..<200 where !box.sawEvent {
            _ = try await client.call(Endpoints.locationSet, Params.LocationSet(lat: 61.5, lon: 23.7))
            usleep(20_000)
        }
        XCTAssertTrue(box.sawEvent, "watch delivers events as notifications")
        XCTAssertEqual(harness.stop(), 0)
        await fulfillment(of: [done], timeout: 30)
        XCTAssertEqual(try box.value?.get().stopped, true, "watch gets a final response when the daemon stops")
    }
}

final class ResultBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Result<Value, Error>?
    private var _sawEvent = false
    var value: Result<Value, Error>? {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
    var sawEvent: Bool {
        get { lock.withLock { _sawEvent } }
        set { lock.withLock { _sawEvent = newValue } }
    }
}
