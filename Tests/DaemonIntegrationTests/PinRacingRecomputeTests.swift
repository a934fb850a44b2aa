import Foundation
import Synchronization
import WireProtocol
import XCTest

/// A pin asked while another edit's legs are being computed (issue 27, the `conflict` rule of a
/// pin or a choice): the pin is prepared on the plan with those legs empty. Applied before they
/// are computed, it wins whole (the other edit's legs are never stored, and it answers with the
/// pinned plan); when only the other edit's legs finished meanwhile, the plan it was asked on is
/// gone: `conflict`, and nothing changed. Never a mix, never a lost edit.
final class PinRacingRecomputeTests: SharedTampereDaemonTestCase {
    func testAPinAskedWhileARefreshComputesItsLegsWinsWholeOrGetsConflictAndChangesNothing() async throws {
        let client = try harness.client()
        let socket = try harness.socketPath
        var outcomes: [String] = []
        for _ in 0..<6 {
            let created = try await client.call(Endpoints.planNew, Params.PlanNew(
                from: Tampere.keskustori, to: Tampere.hervanta, mode: .transit, at: Tampere.morning))
            let transit = try XCTUnwrap(created.segments.firstIndex { $0.mode == .transit }, "\(created.segments)") + 1
            XCTAssertTrue(created.segments.allSatisfy { $0.leg != nil })

            let refresh = Mutex<Result<PlanDocument, Error>?>(nil)
            let answered = expectation(description: "the refresh was answered")
            Thread.detachNewThread {
                let outcome = Result {
                    let refresher = try WireClient(socketPath: socket)
                    return try runToEnd { try await refresher.call(Params.PlanRefresh.endpoint, Params.PlanRefresh(id: created.id)) }
                }
                refresh.withLock { $0 = outcome }
                answered.fulfill()
            }
            var pin: Result<PlanDocument, Error>?
            while pin == nil, refresh.withLock({ $0 == nil }) {
                let shown = try await client.call(Endpoints.planShow, Params.PlanShow(id: created.id))
                if shown.segments.contains(where: { $0.leg == nil }) {
                    do {
                        pin = .success(try await client.call(Params.PlanPin.endpoint, Params.PlanPin(id: created.id, segment: transit, time: "08:15")))
                    } catch {
                        pin = .failure(error)
                    }
                }
            }
            await fulfillment(of: [answered], timeout: 120)
            guard let pin else { continue } // the refresh ended before its empty legs were seen: again
            let refreshed = try XCTUnwrap(refresh.withLock { $0 }).get()
            let shown = try await client.call(Endpoints.planShow, Params.PlanShow(id: created.id))
            XCTAssertTrue(shown.segments.allSatisfy { $0.leg != nil }, "every leg is computed in the end: \(shown.segments)")
            switch pin {
            case .success(let pinned):
                outcomes.append("pinned")
                XCTAssertEqual(pinned.generation, created.generation + 2, "the refresh's generation, then the pin's")
                XCTAssertEqual(shown.generation, pinned.generation)
                XCTAssertEqual(shown.pinnedSegment, transit, "the pin is kept")
                if refreshed.generation == pinned.generation {
                    XCTAssertEqual(refreshed.pinnedSegment, transit, "the overtaken refresh answers with the pinned plan")
                } else {
                    XCTAssertEqual(refreshed.generation, created.generation + 1, "the refresh finished first")
                }
            case .failure(let error):
                outcomes.append("conflict")
                XCTAssertEqual((error as? WireError)?.code, "conflict", "\(error)")
                XCTAssertEqual(shown.generation, created.generation + 1, "the refused pin took no generation")
                XCTAssertEqual(refreshed.generation, shown.generation, "the refresh is kept")
                XCTAssertNil(shown.pinnedSegment, "the refused pin left no trace")
                XCTAssertEqual(shown.segments.map(\.leg), refreshed.segments.map(\.leg), "the plan is the refresh's, whole")
            }
        }
        XCTAssertFalse(outcomes.isEmpty, "a pin was asked while the refresh's legs were empty")
    }
}
