import Foundation
import Glibc
import Synchronization
import WireProtocol
import XCTest

/// Clients that stop reading cost the daemon bounded memory and never a task of the shared
/// pool: others are still served and SIGTERM still ends the daemon within its bound.
/// The deadlines are liveness checks (a stalled daemon never answers), not speed figures.
final class StalledClientsTests: XCTestCase {
    func testClientsThatStopReadingDoNotStallAnotherClient() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        // More stalled clients than the shared pool has threads (its width is the core count;
        // Dispatch adds a few threads when some block, so four per core).
        let stalledCount = ProcessInfo.processInfo.activeProcessorCount * 4
        let stuck = try (0..<stalledCount).map { _ in try StalledClient(socketPath: harness.socketPath) }
        for client in stuck { client.sendRequestsThenWatch(statusRequests: 4000) }
        XCTAssertTrue(stuck.allSatisfy { $0.sentBytes > 0 })

        let answer = callWithDeadline(seconds: 10) { [harness] in try await harness.client().call(Endpoints.status, Params.Empty()) }
        XCTAssertNotNil(answer, "a client was not served while \(stalledCount) clients did not read: \(harness.log.suffix(2000))")
        XCTAssertEqual(answer?.counters.connections, stalledCount + 1)
        withExtendedLifetime(stuck) {}
    }

    func testSigtermWithStuckClientsExitsWithinTheShutdownBound() throws {
        let harness = try startDaemon(extraArguments: ["--shutdown-grace", "1"], assertingCleanExit: false)
        let stuck = try (0..<3).map { _ in try StalledClient(socketPath: harness.socketPath) }
        for client in stuck { client.sendRequestsThenWatch(statusRequests: 4000) }
        let process = try XCTUnwrap(harness.process)
        kill(process.processIdentifier, SIGTERM)
        // The documented bound: the grace period, then 2 s for cancelled work to answer.
        let exited = waitForExit(process, seconds: 15)
        XCTAssertTrue(exited, "usefulmapd did not exit after SIGTERM with clients that do not read: \(harness.log.suffix(2000))")
        if exited { XCTAssertEqual(process.terminationStatus, 0) }
        withExtendedLifetime(stuck) {}
    }

    func testPipelinedFloodThatIsNeverReadIsClosedWithoutMemoryGrowth() async throws {
        let harness = try startDaemon(extraArguments: ["--idle-timeout", "2"], assertingCleanExit: false)
        let pid = try XCTUnwrap(harness.process).processIdentifier
        let before = try XCTUnwrap(residentMiB(of: pid))
        let flood = try StalledClient(socketPath: harness.socketPath)
        let request = Array(#"{"jsonrpc":"2.0","id":1,"method":"status"}"#.utf8) + [0x0A]
        let chunk = Array(repeating: request, count: 65536 / request.count).flatMap { $0 }
        var peak = before
        var closed = false
        let deadline = Date().addingTimeInterval(60)
        while flood.sentBytes < 200 << 20, Date() < deadline {
            switch flood.send(chunk, waitingUpTo: 0.2) {
            case .sent, .wouldBlock: break
            case .closed: closed = true
            }
            if closed { break }
            peak = max(peak, residentMiB(of: pid) ?? 0)
        }
        XCTAssertTrue(closed, "the daemon kept a connection that never reads (\(flood.sentBytes) bytes sent)")
        XCTAssertLessThan(flood.sentBytes, 200 << 20, "the daemon read the whole flood instead of pausing")
        XCTAssertLessThan(peak - before, 64, "the daemon grew from \(before) MiB to \(peak) MiB")
        XCTAssertTrue(harness.log.contains("idle past the idle timeout"), harness.log.suffix(2000).description)
        await XCTAssertNoThrowAsync(try await harness.client().call(Endpoints.status, Params.Empty()))
    }

    // MARK: - Helpers

    private func callWithDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) -> T? {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let answer = try? runToEnd { try await body() }
            result.withLock { $0 = answer }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }

    private func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        return !process.isRunning
    }
}

/// The daemon's resident memory in MiB (VmRSS from /proc).
func residentMiB(of pid: Int32) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return (line.split(separator: " ").compactMap { Double($0) }.first ?? 0) / 1024
    }
    return nil
}

/// A raw connection that sends and never reads (a suspended `umctl watch`, a pager that stopped).
final class StalledClient: @unchecked Sendable {
    enum SendResult { case sent, wouldBlock, closed }

    let fd: Int32
    private(set) var sentBytes = 0

    init(socketPath: String) throws {
        fd = try WireClient.connectedSocket(path: socketPath)
        var small: Int32 = 4096
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    /// Sends what the socket takes within `seconds`.
    func send(_ bytes: [UInt8], waitingUpTo seconds: Double) -> SendResult {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return .wouldBlock }
        let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if count > 0 {
            sentBytes += count
            return .sent
        }
        return errno == EAGAIN || errno == EINTR ? .wouldBlock : .closed
    }

    /// Pipelines `status` requests, then `watch`, sending what the socket takes; never reads.
    func sendRequestsThenWatch(statusRequests: Int) {
        var lines = (0..<statusRequests).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"status"}"# }
        lines.append(#"{"jsonrpc":"2.0","id":"w","method":"watch"}"#)
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let before = sentBytes
            guard send(Array(bytes[offset...]), waitingUpTo: 0.5) == .sent else { return }
            offset += sentBytes - before
        }
    }
}
