import Foundation
import Glibc
import Store
import WireProtocol
import XCTest

/// Issue 16, item 10: a plan whose recompute a kill interrupted gets its legs at the next start,
/// without any client touching it.
final class InterruptedRecomputeTests: XCTestCase {
    func testAPlanLeftWithEmptyLegsByAKillIsRecomputedWhenTheDaemonStartsAgain() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), assertingCleanExit: false)
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = Int64(try XCTUnwrap(plan["id"]?.numberValue))
        let store = try Store(path: harness.dataDirectory.appendingPathComponent("usefulmap.sqlite").path)

        // Edit until a kill -9 lands while the edit is stored and its legs are not yet.
        var interrupted = false
        for attempt in 0..<20 where !interrupted {
            if attempt > 0 { try harness.start() }
            let socket = harness.socketPath
            let mode: WireMode = attempt % 2 == 0 ? .transit : .car
            Thread.detachNewThread {
                if let client = try? WireClient(socketPath: socket) {
                    _ = try? runToEnd { try await client.call(Params.PlanMode.endpoint, Params.PlanMode(id: id, segment: 1, mode: mode)) }
                }
            }
            for _ in 0..<2000 where (try? store.read(Plans.withPendingLegs())) != [id] { usleep(1_000) }
            let pid = try XCTUnwrap(harness.process?.processIdentifier)
            kill(pid, SIGKILL)
            harness.process?.waitUntilExit()
            let stored = try store.read(Plans.load(id)).plan
            interrupted = try store.read(Plans.withPendingLegs()) == [id] && stored.legs[0] == nil
        }
        XCTAssertTrue(interrupted, "a kill landed between the edit and its legs")

        try harness.start()
        defer { XCTAssertEqual(harness.stop(), 0) }
        // No edit is sent: showing only reads. The daemon recomputes on its own.
        var segments: [JSONValue] = []
        for _ in 0..<600 {
            segments = try harness.json(["plan", "show", String(id)])["segments"]?.arrayValue ?? []
            if try store.read(Plans.withPendingLegs()).isEmpty, segments.allSatisfy({ $0["leg"] != .null }) { break }
            usleep(50_000)
        }
        XCTAssertTrue(segments.allSatisfy { $0["leg"] != .null }, "legs computed after the restart: \(segments)")
        XCTAssertEqual(try store.read(Plans.withPendingLegs()), [], "the plan is no longer marked")
        XCTAssertNotNil(try store.read(Plans.load(id)).plan.legs[0], "the legs are stored")
        XCTAssertTrue(harness.log.contains("recomputed plans interrupted by the last stop"), harness.log)
    }
}
