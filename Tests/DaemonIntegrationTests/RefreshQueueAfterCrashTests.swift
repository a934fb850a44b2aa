import Foundation
import Glibc
import WireProtocol
import XCTest

/// The background refresh after a new timetable is not lost when the daemon is killed: the
/// next start queues the region's plans again. And `status` always has `refresh_queue.running`.
final class RefreshQueueAfterCrashTests: XCTestCase {
    static let region = SmallRegion(name: "refreshville", latitude: 62.24, longitude: 25.75)
    static let line = SmallRegion.Line(zone: "Europe/Helsinki", fromStop: "Alku", toStop: "Loppu", departure: "09:00:00",
                                       minutes: 8, dates: ("20260101", "20271231"))

    func testPlansQueuedForRefreshWhenTheDaemonIsKilledAreRefreshedAfterTheRestart() async throws {
        let harness = try startDaemon(assertingCleanExit: false)
        _ = try harness.importSmallRegions([(Self.region, Self.line)])
        let client = try harness.client()
        let grid = Self.region
        for index in 0..<60 {
            let row = Double(index % 4), column = Double((index / 4) % 9)
            _ = try await client.call(Endpoints.planNew, Params.PlanNew(
                from: SmallRegion.text(grid.point(row: row, column: column)),
                to: SmallRegion.text(grid.point(row: 8, column: 8 - column)), mode: .walk))
        }

        // A new timetable queues all 60 plans; the daemon is killed straight after the import
        // answers, with plans still queued.
        var newLine = Self.line
        newLine.departure = "09:30:00"
        let reimport = try harness.umctl(["region", "import", grid.name, "--osm", try grid.writeOSM(in: harness.directory).path,
                                          "--gtfs", try grid.writeFeed(newLine, in: harness.directory, fileName: "new.zip").path])
        XCTAssertEqual(reimport.status, 0, reimport.stderr)
        let queuedAtKill = try XCTUnwrap(try refreshQueue(harness)).queued
        let process = try XCTUnwrap(harness.process)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if queuedAtKill.isEmpty { throw XCTSkip("the refresh finished before the kill: nothing was left to lose") }

        // The restarted daemon refreshes the region's plans again, those still queued among them.
        try harness.start()
        let deadline = Date().addingTimeInterval(120)
        var queue = try XCTUnwrap(try refreshQueue(harness))
        // Drained means nothing queued and nothing running: a stop while the last plan is still
        // being refreshed rightly leaves the region owed.
        while queue.refreshed < queuedAtKill.count || !queue.queued.isEmpty || queue.running != nil, Date() < deadline {
            usleep(200_000)
            queue = try XCTUnwrap(try refreshQueue(harness))
        }
        XCTAssertGreaterThanOrEqual(queue.refreshed, queuedAtKill.count,
                                    "\(queuedAtKill.count) plans were queued at the kill: \(queue)")
        XCTAssertEqual(queue.queued, [])
        XCTAssertNil(queue.running, "\(queue)")
        XCTAssertTrue(harness.log.contains("resuming the refresh a previous run left unfinished"))

        // Drained: the next start owes nothing.
        XCTAssertEqual(harness.stop(), 0)
        try harness.start()
        XCTAssertEqual(try refreshQueue(harness)?.queued, [])
        XCTAssertEqual(try refreshQueue(harness)?.refreshed, 0)
    }

    private func refreshQueue(_ harness: DaemonHarness) throws -> RefreshQueueDocument? {
        let client = try harness.client()
        return try runToEnd { try await client.call(Endpoints.status, Params.Empty()).refreshQueue }
    }

    func testStatusShowsTheRunningRefreshAsNullWhenNothingRuns() async throws {
        let harness = try startDaemon(assertingCleanExit: false)
        // The wire's shape: a key with null, not a missing key.
        let status = try await harness.client().call("status", params: JSONValue.object([:]))
        XCTAssertEqual(status["refresh_queue"]?["running"], .null, "\(status)")
        guard case .object(let queue)? = status["refresh_queue"] else { return XCTFail("\(status)") }
        XCTAssertTrue(queue.keys.contains("running"), "the key is present: \(queue)")
    }
}
