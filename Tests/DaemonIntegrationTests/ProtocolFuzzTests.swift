import Foundation
import WireProtocol
import XCTest

/// A short seeded pass of `usefulmap-bench fuzz` (truncations, random bytes, deep nesting,
/// huge numbers, bad UTF-8, batches, hang-ups) against the real daemon on Tampere. The long
/// run's figures are in BENCHMARKS.md.
final class ProtocolFuzzTests: XCTestCase {
    func testSeededFuzzPassLeavesTheDaemonAliveAndServing() async throws {
        let harness = try startDaemon(regionsFrom: TampereRegion.dataDirectory(), assertingCleanExit: false)
        let bench = DaemonHarness.binaries.appendingPathComponent("usefulmap-bench").path
        let result = try DaemonHarness.run(bench, ["fuzz", "--inputs=3000", "--seed=16", "--socket=\(harness.socketPath)"],
                                           in: harness.directory)
        XCTAssertEqual(result.status, 0, "\(result.stderr)\n\(harness.log.suffix(3000))")
        XCTAssertTrue(result.stdout.contains("daemon deaths"), result.stdout)
        XCTAssertTrue(harness.process?.isRunning ?? false, "usefulmapd died: \(harness.log.suffix(3000))")
        var status = try await harness.client().call(Endpoints.status, Params.Empty())
        for _ in 0..<100 where status.counters.connections > 1 {
            usleep(50_000)
            status = try await harness.client().call(Endpoints.status, Params.Empty())
        }
        XCTAssertEqual(status.regions.map(\.name), ["tampere"])
        XCTAssertEqual(status.counters.connections, 1, "every fuzzing connection was closed")
    }
}
