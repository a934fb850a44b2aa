import Foundation
import Glibc
import WireProtocol
import XCTest

/// Watchers that never read cost a bounded amount of memory each (their events are capped in
/// bytes), and the daemon gives it back when they go.
final class WatcherMemoryTests: XCTestCase {
    func testFiftyWatchersThatNeverReadHoldBoundedMemoryThatIsFreedWhenTheyGo() async throws {
        let harness = try startDaemon()
        let pid = try XCTUnwrap(harness.process).processIdentifier
        let publisher = try harness.client()
        _ = try await publisher.call(Endpoints.status, Params.Empty())
        let before = try XCTUnwrap(residentMiB(of: pid))

        var watchers: [StalledClient]? = try (0..<50).map { _ in try StalledClient(socketPath: harness.socketPath) }
        for watcher in watchers ?? [] { watcher.sendRequestsThenWatch(statusRequests: 0) }
        for _ in 0..<100 where try harness.counters().watchers < 50 { usleep(50_000) }
        XCTAssertEqual(try harness.counters().watchers, 50)

        // 30,000 `location_changed` events (~150 bytes each) for every watcher, as batches of notifications.
        let set = #"{"jsonrpc":"2.0","method":"location.set","params":{"lat":61.5,"lon":23.76}}"#
        let line = Data(("[" + Array(repeating: set, count: WireLimits.maximumBatchCalls).joined(separator: ",") + "]\n").utf8)
        var peak = before
        for round in 0..<(30_000 / WireLimits.maximumBatchCalls) {
            try publisher.send(line)
            // Answered after the batch: events come at the pace the daemon makes them, so
            // each watcher's own queue takes them all.
            _ = try await publisher.call(Endpoints.status, Params.Empty())
            if round % 20 == 0 { peak = max(peak, residentMiB(of: pid) ?? 0) }
        }
        peak = max(peak, residentMiB(of: pid) ?? 0)
        XCTAssertLessThan(peak - before, 64, "50 watchers that never read took the daemon from \(before) MiB to \(peak) MiB")

        watchers = nil // they close
        for _ in 0..<100 where try harness.counters().watchers > 0 { usleep(50_000) }
        XCTAssertEqual(try harness.counters().watchers, 0)
        let after = try XCTUnwrap(residentMiB(of: pid))
        XCTAssertLessThan(after - before, 16, "after the watchers went: \(after) MiB, before them \(before) MiB (peak \(peak) MiB)")
    }
}
