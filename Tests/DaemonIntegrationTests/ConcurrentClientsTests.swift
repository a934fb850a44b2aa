import Foundation
import WireProtocol
import XCTest

/// Many clients at once: every edit lands on its own plan, nothing is lost or mixed up.
final class ConcurrentClientsTests: XCTestCase {
    func testThirtyTwoClientsEditingDifferentPlansLoseNothing() async throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let socket = harness.socketPath
        let ends = [Tampere.keskustori, Tampere.ratina, Tampere.tampereTalo, Tampere.railwayStation, Tampere.pyynikki]
        let results = ConcurrentResults()

        DispatchQueue.concurrentPerform(iterations: 32) { index in
            do {
                let client = try WireClient(socketPath: socket)
                let from = ends[index % ends.count], to = ends[(index + 1 + index / ends.count) % ends.count]
                let destination = from == to ? Tampere.hervanta : to
                let shown = try runToEnd {
                    let created = try await client.call(Endpoints.planNew, Params.PlanNew(from: from, to: destination, mode: .walk,
                                                                                          at: Tampere.morning, title: "client \(index)"))
                    _ = try await client.call(Params.PlanMode.endpoint, Params.PlanMode(id: created.id, segment: 1, mode: index.isMultiple(of: 2) ? .car : .walk))
                    _ = try await client.call(Params.PlanPace.endpoint, Params.PlanPace(id: created.id, pace: .fast))
                    return try await client.call(Endpoints.planShow, Params.PlanShow(id: created.id))
                }
                results.record(index: index, plan: shown)
            } catch {
                results.fail(index: index, error: error)
            }
        }

        XCTAssertEqual(results.failures, [], "every client succeeded")
        let plans = results.plans
        XCTAssertEqual(plans.count, 32)
        XCTAssertEqual(Set(plans.values.map(\.id)).count, 32, "32 distinct plans")
        for (index, plan) in plans {
            XCTAssertEqual(plan.title, "client \(index)", "each client sees its own plan")
            XCTAssertEqual(plan.segments.first?.mode, index.isMultiple(of: 2) ? .car : .walk)
            XCTAssertEqual(plan.pace, .fast)
            XCTAssertNotNil(plan.segments.first?.leg, "the last edit's leg was stored")
        }
        let listed = try await harness.client().call(Endpoints.planList, Params.Empty()).plans
        XCTAssertEqual(listed.count, 32)
        XCTAssertEqual(try harness.counters().plansRecomputed, 32 * 3)
    }
}

final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var _plans: [Int: PlanDocument] = [:]
    private var _failures: [String] = []

    func record(index: Int, plan: PlanDocument) { lock.withLock { _plans[index] = plan } }
    func fail(index: Int, error: Error) { lock.withLock { _failures.append("client \(index): \(error)") } }
    var plans: [Int: PlanDocument] { lock.withLock { _plans } }
    var failures: [String] { lock.withLock { _failures } }
}
