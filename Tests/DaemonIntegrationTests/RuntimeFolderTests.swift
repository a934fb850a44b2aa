import Foundation
import Glibc
import WireProtocol
import XCTest

/// Whoever can write in the socket's folder can put their own socket there and read what
/// umctl sends: the daemon refuses such a folder, and umctl refuses a socket served by
/// another user before sending anything.
final class RuntimeFolderTests: XCTestCase {
    let nobody: uid_t = 65534

    /// Starts the daemon expecting it to refuse with a message naming `needles`; nothing may
    /// be left behind: no socket and no database.
    func assertRefused(_ harness: DaemonHarness, naming needles: [String],
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let process = try harness.launchDaemon()
        // Until it exits; a daemon that serves anyway is a failure, not a hang.
        while process.isRunning {
            if let client = try? harness.client(), (try? runToEnd({ try await client.call(Endpoints.status, Params.Empty()) })) != nil {
                XCTFail("usefulmapd serves on an unsafe socket folder", file: file, line: line)
                process.terminate()
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, harness.log, file: file, line: line)
        for needle in needles {
            XCTAssertTrue(harness.log.contains(needle), "\(needle) not in: \(harness.log)", file: file, line: line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.socketPath), file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.dataDirectory.appendingPathComponent("usefulmap.sqlite").path),
                       "refused before the database was touched", file: file, line: line)
    }

    func socketFolder(_ harness: DaemonHarness) -> String {
        (harness.socketPath as NSString).deletingLastPathComponent
    }

    func testSocketFolderOwnedByAnotherUserIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to make a folder owned by another user") }
        let harness = try makeDaemon()
        let folder = socketFolder(harness)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chown(folder, nobody, nobody), 0)
        try assertRefused(harness, naming: ["refusing the socket folder \(folder)", "belongs to uid 65534"])
    }

    func testSocketFolderOthersMayEnterIsRefused() throws {
        let harness = try makeDaemon()
        let folder = socketFolder(harness)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chmod(folder, 0o755), 0)
        try assertRefused(harness, naming: ["refusing the socket folder \(folder)", "mode 0755"])
    }

    func testFolderAboveTheSocketFolderMadeByAnotherUserIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to make a folder owned by another user") }
        // As another user would prepare the predictable /tmp/usefulmap-UID fallback.
        let harness = try makeDaemon()
        let above = harness.directory.appendingPathComponent("run").path
        try FileManager.default.createDirectory(atPath: above, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        XCTAssertEqual(chown(above, nobody, nobody), 0)
        try assertRefused(harness, naming: ["refusing \(above), above the socket folder", "belongs to uid 65534"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketFolder(harness)), "nothing is created inside it")
    }

    func testMissingSocketFolderIsCreatedPrivateToTheDaemonsUser() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        var info = stat()
        XCTAssertEqual(lstat(socketFolder(harness), &info), 0)
        XCTAssertEqual(info.st_uid, geteuid())
        XCTAssertEqual(info.st_mode & 0o7777, 0o700)
        XCTAssertEqual(harness.stop(), 0)
    }

    func testUmctlRefusesASocketServedByAnotherUserBeforeSendingAnything() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to listen as another user") }
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        XCTAssertEqual(chown(directory.path, nobody, nobody), 0)
        let path = directory.appendingPathComponent("usefulmapd.sock").path
        // SO_PEERCRED reports who called listen(): do that as `nobody`, then become root again.
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        XCTAssertEqual(seteuid(nobody), 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let listening = listen(listener, 4)
        XCTAssertEqual(seteuid(0), 0)
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listening, 0)

        // What the client sends first (nothing, if it hangs up); then the connection is closed,
        // so a client that did send is not left waiting for an answer.
        let received = expectation(description: "the client sent something or hung up")
        let bytes = ReceivedBytes()
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = connection >= 0 ? read(connection, &buffer, buffer.count) : 0
            if count > 0 { bytes.append(buffer[..<count]) }
            close(connection)
            received.fulfill()
        }
        let result = try DaemonHarness.run(DaemonHarness.umctl, ["status", "--socket", path], in: directory)
        wait(for: [received], timeout: 30)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("served by uid 65534"), result.stderr)
        XCTAssertTrue(result.stderr.contains(path), result.stderr)
        XCTAssertEqual(bytes.count, 0, "umctl sent nothing to another user's socket")
    }
}

final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    func append(_ more: ArraySlice<UInt8>) { lock.withLock { bytes += more } }
    var count: Int { lock.withLock { bytes.count } }
}
