import Foundation
import Synchronization
import WireProtocol
import XCTest

/// `plan.copy` of a plan whose legs an edit is still computing (issue 27): the copy is a plan of
/// its own that no computation of the original will ever fill, so it is stored with its legs
/// computed, never empty.
final class CopyWhileComputingTests: SharedTampereDaemonTestCase {
    func testACopyTakenWhileTheOriginalsLegsAreBeingComputedIsStoredWithComputedLegs() async throws {
        let client = try harness.client()
        let original = try await client.call(Endpoints.planNew, Params.PlanNew(
            from: Tampere.keskustori, to: Tampere.hervanta, mode: .transit, at: Tampere.morning,
            via: [Tampere.pyynikki, Tampere.ratina, Tampere.tampereTalo]))
        XCTAssertTrue(original.segments.allSatisfy { $0.leg != nil }, "every leg of the original is computed to begin with")
        let socket = try harness.socketPath

        // A refresh empties every leg of the original (stored at once) and asks them again; the
        // copy is asked once `plan.show` shows them empty.
        var copy: PlanDocument?
        for _ in 0..<20 where copy == nil {
            let refreshed = Atomic<Bool>(false)
            let answered = expectation(description: "the refresh was answered")
            Thread.detachNewThread {
                if let refresher = try? WireClient(socketPath: socket) {
                    _ = try? runToEnd { try await refresher.call(Params.PlanRefresh.endpoint, Params.PlanRefresh(id: original.id)) }
                }
                refreshed.store(true, ordering: .sequentiallyConsistent)
                answered.fulfill()
            }
            while !refreshed.load(ordering: .sequentiallyConsistent) {
                let shown = try await client.call(Endpoints.planShow, Params.PlanShow(id: original.id))
                if shown.segments.contains(where: { $0.leg == nil }) {
                    copy = try await client.call(Endpoints.planCopy, Params.PlanCopy(id: original.id, title: "copy"))
                    break
                }
            }
            await fulfillment(of: [answered], timeout: 120)
        }
        let copied = try XCTUnwrap(copy, "a copy was asked while the original's legs were empty")
        XCTAssertTrue(copied.segments.allSatisfy { $0.leg != nil }, "the copy's answer has every leg: \(copied.segments)")
        let stored = try await client.call(Endpoints.planShow, Params.PlanShow(id: copied.id))
        XCTAssertTrue(stored.segments.allSatisfy { $0.leg != nil }, "the copy is stored with every leg: \(stored.segments)")
        XCTAssertEqual(stored.nodes.map(\.name), original.nodes.map(\.name))
        XCTAssertEqual(stored.segments.map(\.mode), original.segments.map(\.mode))
        XCTAssertEqual(stored.generation, 1)
    }
}
