import Daemon
import Foundation
import Glibc
import WireProtocol
import XCTest

/// Connections are bounded: past `max_connections` a client gets `too_many_connections`,
/// and a connection silent past the idle timeout (with nothing running) is closed.
final class ConnectionLimitsTests: XCTestCase {
    func testTwoThousandIdleConnectionsLeaveTheDaemonServingWithinItsLimit() async throws {
        try raiseOpenFileLimit(to: 4096)
        let harness = try startDaemon(assertingCleanExit: false)
        let limit = ConnectionLimits().maxConnections
        var idle: [Int32] = []
        defer { for fd in idle { close(fd) } }
        for _ in 0..<2000 { idle.append(try WireClient.connectedSocket(path: harness.socketPath)) }

        // Those past the limit are told why and closed; the others stay open and silent.
        var refused = Set<Int32>()
        var lastChange = Date()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, Date().timeIntervalSince(lastChange) < 2 {
            var descriptors = idle.filter { !refused.contains($0) }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 200) > 0 else { continue }
            for descriptor in descriptors where descriptor.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(descriptor.fd, &buffer, buffer.count)
                let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
                XCTAssertTrue(text.contains("too_many_connections"), "a refused connection got: \(text)")
                refused.insert(descriptor.fd)
                lastChange = Date()
            }
        }
        XCTAssertGreaterThanOrEqual(refused.count, 2000 - limit)
        XCTAssertLessThanOrEqual(2000 - refused.count, limit)

        // A new client past the limit gets the documented error, not a hang.
        await XCTAssertThrowsErrorAsync(try await harness.client().call(Endpoints.status, Params.Empty())) { error in
            XCTAssertEqual((error as? WireError)?.code, "too_many_connections", "\(error)")
        }
        // One idle client leaves; a new one is served.
        let open = idle.filter { !refused.contains($0) }
        close(try XCTUnwrap(open.first))
        idle.removeAll { $0 == open.first }
        var served: StatusDocument?
        for _ in 0..<200 where served == nil {
            served = try? await harness.client().call(Endpoints.status, Params.Empty())
            if served == nil { usleep(50_000) }
        }
        XCTAssertEqual(served?.counters.connections, limit)
        XCTAssertTrue(harness.log.contains("too many connections"))
    }

    func testIdleConnectionIsClosedAfterTheIdleTimeoutButAWatcherIsNot() throws {
        let harness = try startDaemon(extraArguments: ["--idle-timeout", "1"], assertingCleanExit: false)
        let watcher = try harness.client()
        try watcher.send(WireCodec.line(for: WireRequest(id: .number(1), method: "watch", params: .object([:]))))
        let silent = try WireClient.connectedSocket(path: harness.socketPath)
        defer { close(silent) }
        var descriptor = pollfd(fd: silent, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 30_000), 1, "the idle connection was not closed")
        var byte: UInt8 = 0
        XCTAssertEqual(read(silent, &byte, 1), 0, "closed without a word")
        XCTAssertEqual(try harness.counters().watchers, 1, "a running watch is not idle")
        XCTAssertTrue(harness.log.contains("idle past the idle timeout"))
    }

    func testLimitsAreSettingsWithClearErrors() throws {
        let harness = try makeDaemon()
        for (flag, value) in [("--max-connections", "0"), ("--idle-timeout", "-1"), ("--max-in-flight", "x"), ("--max-output-kb", "0")] {
            let process = try harness.launchDaemon(extraArguments: [flag, value])
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 2, "\(flag) \(value) was accepted")
        }
    }

    private func raiseOpenFileLimit(to wanted: rlim_t) throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 2100 { throw XCTSkip("the open-file limit is \(limit.rlim_cur); 2,000 connections need more") }
    }
}
