import Foundation
import WireProtocol
import XCTest

/// Edits of one plan are serialised: a later edit wins even while an earlier one is computing,
/// and a stale result is never stored.
final class PlanEditSerialisationTests: XCTestCase {
    func testLaterEditWinsOverAnEarlierOneStillComputing() async throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        var plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = Int64(try XCTUnwrap(plan["id"]?.numberValue))
        for (after, place) in [(1, Tampere.pyynikki), (2, Tampere.ratina), (3, Tampere.tampereTalo)] {
            plan = try harness.json(["plan", "insert", String(id), "--after", String(after), place])
        }
        let socket = harness.socketPath
        let slowDone = expectation(description: "slow edit answered")
        let slow = ResultBox<PlanDocument>()
        Thread.detachNewThread {
            // Walk, transit and car variants of every segment: many queries.
            slow.value = Result {
                let client = try WireClient(socketPath: socket)
                return try runToEnd { try await client.call(Params.PlanPreset.endpoint, Params.PlanPreset(id: id, preset: .fastest)) }
            }
            slowDone.fulfill()
        }
        let before = try harness.counters().routingQueries.total
        for _ in 0..<400 where (try? harness.counters().routingQueries.total) == before { usleep(5_000) }
        let fast = try await harness.client().call(Params.PlanMode.endpoint, Params.PlanMode(id: id, segment: 2, mode: .car))
        await fulfillment(of: [slowDone], timeout: 60)

        XCTAssertEqual(fast.segments[1].mode, .car)
        XCTAssertTrue(fast.segments[1].locked)
        let stored = try await harness.client().call(Endpoints.planShow, Params.PlanShow(id: id))
        XCTAssertEqual(stored.segments[1].mode, .car, "the later edit is what is stored")
        XCTAssertGreaterThanOrEqual(stored.generation, fast.generation)
        if case .success(let slowPlan)? = slow.value {
            XCTAssertEqual(slowPlan.segments[1].mode, .car, "the superseded edit answers with the newest plan, not its stale result")
        }
        XCTAssertTrue(stored.segments.allSatisfy { $0.leg != nil }, "every leg computed after both edits")
    }
}
