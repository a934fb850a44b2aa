import Foundation
import Glibc
import WireProtocol
import XCTest

/// Under a low open-file limit (`prlimit`, as systemd's default 1,024 would be), clients that
/// pass many files cannot exhaust the daemon's descriptors: the soft limit is raised to the hard
/// one, passed files are capped in total, and a client over the budget hears
/// `too_many_connections` instead of waiting forever.
final class DescriptorExhaustionTests: XCTestCase {
    func testSoftOpenFileLimitIsRaisedToTheHardLimitAtStart() throws {
        let harness = try startDaemon(launcher: ["/usr/bin/prlimit", "--nofile=256:4096", "--"])
        let pid = try XCTUnwrap(harness.process).processIdentifier
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = try XCTUnwrap(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(numbers, [4096, 4096], String(line))
    }

    func testClientsPassingManyFilesNearTheLimitGetTooManyConnectionsInsteadOfHanging() async throws {
        let harness = try startDaemon(launcher: ["/usr/bin/prlimit", "--nofile=256:256", "--"])
        let request = Data((#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n").utf8)
        var open: [Int32] = []
        defer { open.forEach { close($0) } }
        var answered = 0, refused = 0, silent = 0
        // 60 clients each passing 16 files: 1,140 descriptors' worth against a limit of 256.
        for _ in 0..<61 {
            let fd = try WireClient.connectedSocket(path: harness.socketPath)
            open.append(fd)
            let passed = (0..<DescriptorPassing.maximumPerMessage).map { _ in Glibc.open("/dev/null", O_RDONLY) }
            _ = try? DescriptorPassing.send(request, descriptors: passed, on: fd)
            passed.forEach { close($0) }
            switch firstLine(on: fd, waitingUpTo: 20) {
            case nil: silent += 1
            case let line? where line.contains("too_many_connections"): refused += 1
            case let line? where line.contains("\"result\""): answered += 1
            case let line?: XCTFail("unexpected answer: \(line)")
            }
        }
        XCTAssertEqual(silent, 0, "\(silent) clients got no answer at all (\(answered) answered, \(refused) refused): \(harness.log.suffix(1500))")
        XCTAssertGreaterThan(refused, 0, "the budget never refused anyone (\(answered) answered)")
        XCTAssertGreaterThan(answered, 0)
        let acceptFailures = harness.log.components(separatedBy: "accept failed").count - 1
        XCTAssertLessThanOrEqual(acceptFailures, 2, "the log repeats accept failures")

        open.forEach { close($0) }
        open = []
        // Once the clients left, the daemon serves again: the files they passed were closed.
        var status: StatusDocument?
        for _ in 0..<50 where status == nil {
            status = try? await harness.client().call(Endpoints.status, Params.Empty())
            if status == nil { usleep(100_000) }
        }
        XCTAssertNotNil(status, harness.log.suffix(1500).description)
    }

    /// The first line the daemon sends on `fd`, or nil when none comes in time (a liveness bound).
    private func firstLine(on fd: Int32, waitingUpTo seconds: Double) -> String? {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(0x0A), Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        guard let end = received.firstIndex(of: 0x0A) else { return nil }
        return String(decoding: received[..<end], as: UTF8.self)
    }
}
