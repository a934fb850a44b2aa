import Foundation
import Glibc
import WireProtocol
import XCTest

/// A log line that cannot be written (a full disk, a pipe whose reader has gone) is dropped and
/// counted in `status`; the daemon keeps serving. Each daemon here logs at debug, so every
/// request writes a line.
final class FailingLogWritesTests: XCTestCase {
    func testTheDaemonKeepsServingWhenItsLogGoesToAFullDevice() async throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw XCTSkip("/dev/full is missing") }
        let harness = try startDaemon(standardError: full, assertingCleanExit: false)
        try await assertServesAndCountsDroppedLines(harness)
    }

    func testTheDaemonKeepsServingAfterTheReaderOfItsLogPipeHasGone() async throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe: \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } // the daemon gets only its stderr
        let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let harness = try startDaemon(standardError: writer, assertingCleanExit: false)
        try reader.close() // the only reader: from now on every write gets EPIPE
        try await assertServesAndCountsDroppedLines(harness)
    }

    private func assertServesAndCountsDroppedLines(_ harness: DaemonHarness, file: StaticString = #filePath,
                                                   line: UInt = #line) async throws {
        let client = try harness.client()
        for _ in 0..<20 { _ = try await client.call(Endpoints.status, Params.Empty()) }
        await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.planShow, Params.PlanShow(id: 987_654)), file: file, line: line)
        let counters = try harness.counters()
        XCTAssertGreaterThanOrEqual(counters.logLinesDropped ?? 0, 20, "every answered request's line is counted",
                                    file: file, line: line)
        XCTAssertEqual(harness.process?.isRunning, true, file: file, line: line)
        XCTAssertEqual(harness.stop(), 0, "a clean stop, though its last lines cannot be written either", file: file, line: line)
    }
}
