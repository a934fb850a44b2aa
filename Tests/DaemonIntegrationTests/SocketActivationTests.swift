import Foundation
import Glibc
import WireProtocol
import XCTest

/// systemd integration: socket activation, READY=1, and the unit files.
final class SocketActivationTests: XCTestCase {
    /// A datagram socket standing in for systemd's notify socket.
    final class NotifySocket {
        let fd: Int32
        let path: String

        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw HarnessError("cannot bind notify socket") }
        }

        deinit { close(fd) }

        /// Every datagram received until one contains `wanted`, or nil after `seconds`.
        func waitFor(_ wanted: String, seconds: Int32) -> String? {
            var received = ""
            for _ in 0..<seconds * 10 {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 100) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 { received += String(decoding: buffer[0..<count], as: UTF8.self) + "\n" }
                if received.contains(wanted) { return received }
            }
            return nil
        }
    }

    func testSocketActivatedDaemonServesThePassedSocketAndSendsReady() async throws {
        let harness = try makeDaemon()
        let notify = try NotifySocket(path: harness.directory.appendingPathComponent("notify.sock").path)
        let activatedSocket = harness.directory.appendingPathComponent("activated.sock").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        process.arguments = ["--listen=\(activatedSocket)", "--setenv=NOTIFY_SOCKET=\(notify.path)",
                             DaemonHarness.usefulmapd, "--data-dir", harness.dataDirectory.path,
                             // A socket path that is never bound: the daemon must use the passed one.
                             "--socket", harness.directory.appendingPathComponent("unused.sock").path]
        let log = harness.directory.appendingPathComponent("activate.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        for _ in 0..<200 where !FileManager.default.fileExists(atPath: activatedSocket) { usleep(25_000) }
        // The first connection starts the daemon on the listening socket.
        let client = try WireClient(socketPath: activatedSocket)
        let status = try await client.call(Endpoints.status, Params.Empty())
        XCTAssertEqual(status.dataDirectory, harness.dataDirectory.path)
        let messages = notify.waitFor("READY=1", seconds: 20)
        XCTAssertNotNil(messages, "READY=1 on NOTIFY_SOCKET")
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.directory.appendingPathComponent("unused.sock").path))

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        XCTAssertNotNil(notify.waitFor("STOPPING=1", seconds: 5), "STOPPING=1 on SIGTERM")
    }

    func testUnitFilesPassSystemdAnalyzeVerify() throws {
        let units = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("systemd")
        // ExecStart is %h/.local/bin/usefulmapd: give verify a home where it exists.
        let home = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".local/bin"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home.appendingPathComponent(".local/bin/usefulmapd").path,
                                                   withDestinationPath: DaemonHarness.usefulmapd)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = home.path
        for scope in [[], ["--user"]] {
            let result = try DaemonHarness.run(
                "/usr/bin/systemd-analyze", scope + ["verify", units.appendingPathComponent("usefulmapd.socket").path,
                                                     units.appendingPathComponent("usefulmapd.service").path],
                in: home, environment: environment)
            XCTAssertEqual(result.status, 0, "systemd-analyze \(scope.joined()) verify: \(result.stderr)\(result.stdout)")
        }
        let service = try String(contentsOf: units.appendingPathComponent("usefulmapd.service"), encoding: .utf8)
        for directive in ["Type=notify", "ProtectSystem=strict", "PrivateTmp=yes", "NoNewPrivileges=yes",
                          "ReadWritePaths=-%h/.local/share/usefulmap"] {
            XCTAssertTrue(service.contains(directive), "usefulmapd.service lacks \(directive)")
        }
    }
}
