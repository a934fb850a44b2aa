import Daemon
import Foundation
import Planner
import SQLite
import Store
import TestSupport
import XCTest

/// The coordinator goes on from the generation stored with the plan, and stores every one it
/// takes in the same write as the change (issue 27): a coordinator started on the same file (a
/// restart of the daemon) sees the same numbers.
final class StoredGenerationRulesTests: OneStoredPlanTestCase {
    private func storedGeneration() async throws -> Int64 { try await store.read(Plans.load(id)).generation }

    private func coordinator() -> PlanRepository { PlanRepository(store: store, counters: DaemonCounters(), events: EventHub()) }

    private static func legs(_ plan: RoutePlan) throws -> LegComputation {
        let legs = plan.modes.map { Optional(RouteLeg(mode: $0, expectedTravelTime: 60)) }
        return LegComputation(plan: try RoutePlan(restoring: plan.nodes, modes: plan.modes, legs: legs, timePreference: plan.timePreference,
                                                  pace: plan.pace, locks: plan.locks, pinned: plan.pinned, pending: plan.pending),
                              failures: [], queryCount: plan.segmentCount)
    }

    private func toCar(_ coordinator: PlanRepository, expecting generation: Int64? = nil) async throws -> PlanRepository.Outcome {
        try await coordinator.userEdit(id: id, expectedGeneration: generation, change: { try $0.changingMode(ofSegment: 0, to: .car) },
                                   compute: { try Self.legs($0) })
    }

    func testEveryEditIsStoredWithItsGenerationAndANewCoordinatorGoesOnFromIt() async throws {
        let first = coordinator()
        let created = try await first.show(id: id).generation
        XCTAssertEqual(created, 1, "as created")
        _ = try await toCar(first)
        let batch = try await first.atomicChange(id: id, expectedGeneration: 2, dryRun: false) { plan, title in
            (try Self.legs(plan.settingPace(.fast)), [], title)
        }
        XCTAssertEqual(batch.generation, 3)
        let afterBatch = try await storedGeneration()
        XCTAssertEqual(afterBatch, 3, "stored with the change")

        let restarted = coordinator()
        let afterRestart = try await restarted.show(id: id).generation
        XCTAssertEqual(afterRestart, 3)
        do {
            _ = try await toCar(restarted, expecting: 2)
            XCTFail("a stale generation from before the restart is refused")
        } catch DaemonError.staleGeneration {}
        let next = try await toCar(restarted, expecting: 3)
        XCTAssertEqual(next.generation, 4)
        let afterNext = try await storedGeneration()
        XCTAssertEqual(afterNext, 4)
    }

    func testADryRunStoresNoGeneration() async throws {
        let coordinator = coordinator()
        let dry = try await coordinator.atomicChange(id: id, expectedGeneration: nil, dryRun: true) { plan, title in
            (try Self.legs(plan), [], title)
        }
        XCTAssertEqual(dry.generation, 1)
        let afterDryRun = try await storedGeneration()
        XCTAssertEqual(afterDryRun, 1)
    }

    /// A plan left with its legs pending by a kill is recomputed at the next start as a change of
    /// its own: one generation more than the edit the kill interrupted, stored.
    func testTheRecomputeOfAnInterruptedPlanTakesTheNextStoredGeneration() async throws {
        let stored = try await store.read(Plans.load(id))
        try await store.write(Plans.save(id: id, plan: try stored.plan.changingMode(ofSegment: 0, to: .car), title: stored.title,
                                 legsPending: true, generation: 5))
        let (done, failed) = try await coordinator().recomputeInterrupted { try Self.legs($0) }
        XCTAssertEqual(done, [id])
        XCTAssertTrue(failed.isEmpty)
        let recomputed = try await store.read(Plans.load(id))
        XCTAssertEqual(recomputed.generation, 6)
        XCTAssertNotNil(recomputed.plan.legs[0])
        let pending = try await store.read(Plans.withPendingLegs())
        XCTAssertEqual(pending, [])
    }

    /// Showing a plan before the start's recompute reaches it (a client's `plan show`) does not
    /// keep it from being recomputed.
    func testAShownPlanIsStillRecomputedAfterAnInterruption() async throws {
        let stored = try await store.read(Plans.load(id))
        try await store.write(Plans.save(id: id, plan: try stored.plan.changingMode(ofSegment: 0, to: .car), title: stored.title,
                                 legsPending: true, generation: 2))
        let coordinator = coordinator()
        let shown = try await coordinator.show(id: id).generation
        XCTAssertEqual(shown, 2)
        let (done, _) = try await coordinator.recomputeInterrupted { try Self.legs($0) }
        XCTAssertEqual(done, [id])
        let afterRecompute = try await storedGeneration()
        XCTAssertEqual(afterRecompute, 3)
    }

    /// A plan whose write fails (here refused, as on a full disk) is shown only as stored: `show`
    /// waits for the write under way, and the generation it took goes back, so the next edit
    /// takes the same number (no number shown ever names two plans, also after a restart).
    func testAGenerationWhoseWriteFailedIsNeverShownAndIsTakenAgain() async throws {
        try refusePlanWrites()
        let coordinator = coordinator()
        let gate = PlanRepositoryTests.Gate()
        let id = id
        let edit = Task.detached { try await PlanRepositoryTests.heldEdit(coordinator, id: id, gate: gate) }
        await gate.waitUntilEntered()
        let whileComputing = try await coordinator.show(id: id)
        XCTAssertEqual(whileComputing.generation, 1, "the edit's write failed: the plan is as stored")
        XCTAssertEqual(whileComputing.plan.modes, [.walk])
        await gate.release()
        do {
            _ = try await edit.value
            XCTFail("the edit was not stored")
        } catch {
            XCTAssertTrue("\(error)".contains("refused"), "\(error)")
        }
        do {
            _ = try await coordinator.atomicChange(id: id, expectedGeneration: 1, dryRun: false) { plan, title in
                (try Self.legs(plan.settingPace(.fast)), [], title)
            }
            XCTFail("the batch was not stored")
        } catch {
            XCTAssertTrue("\(error)".contains("refused"), "\(error)")
        }
        let afterBatch = try await coordinator.show(id: id).generation
        XCTAssertEqual(afterBatch, 1)

        let behind = try Database(path: databasePath, mode: .readWrite)
        try behind.execute("DROP TRIGGER refuse_plan_writes")
        behind.close()
        let next = try await toCar(coordinator, expecting: 1)
        XCTAssertEqual(next.generation, 2)
        let stored = try await storedGeneration()
        XCTAssertEqual(stored, 2)
    }

    /// Makes every write of a plan fail (as on a full disk).
    private func refusePlanWrites() throws {
        let behind = try Database(path: databasePath, mode: .readWrite)
        try behind.execute("CREATE TRIGGER refuse_plan_writes BEFORE UPDATE OF pace ON plan BEGIN SELECT RAISE(ABORT, 'refused'); END")
        behind.close()
    }

    /// A computation alone (a preset, a rebuild, refine, the start's recompute) is its own change:
    /// when its write fails, the edit fails, and the plan is shown as stored.
    func testAComputationAloneWhoseWriteFailsIsAnsweredWithTheWritesError() async throws {
        try refusePlanWrites()
        let coordinator = coordinator()
        do {
            let outcome = try await coordinator.userEdit(id: id, change: nil) { try Self.legs($0.settingPace(.fast)) }
            XCTFail("answered as done at generation \(outcome.generation) though the plan was not stored")
        } catch {
            XCTAssertTrue("\(error)".contains("refused"), "\(error)")
        }
        let shown = try await coordinator.show(id: id)
        XCTAssertEqual(shown.plan.pace, .normal, "shown as stored")
        let stored = try await store.read(Plans.load(id))
        XCTAssertEqual(stored.plan.pace, .normal)
        // A computation alone takes its generation only with its write (none was shown meanwhile).
        XCTAssertEqual(stored.generation, 1, "the plan is as stored, its generation too")
        XCTAssertEqual(shown.generation, 1)
    }

    /// A client that edits a new plan between its creation and the coordinator hearing of it
    /// keeps the generation its edit took.
    func testACreatedPlanAlreadyEditedKeepsItsGeneration() async throws {
        let coordinator = coordinator()
        let edited = try await toCar(coordinator)
        XCTAssertEqual(edited.generation, 2)
        await coordinator.created(id: id, failures: [:])
        let shown = try await coordinator.show(id: id)
        XCTAssertEqual(shown.generation, 2)
        XCTAssertEqual(shown.plan.modes, [.car])
    }

    /// A batch whose plan is deleted while it computes stores nothing and keeps no entry.
    func testABatchOfAPlanDeletedWhileItComputedIsNotFound() async throws {
        let coordinator = coordinator()
        let store = store!, id = id
        do {
            _ = try await coordinator.atomicChange(id: id, expectedGeneration: nil, dryRun: false) { plan, title in
                try await store.write(Plans.delete(id))
                await coordinator.forget(id: id)
                return (try Self.legs(plan.settingPace(.fast)), [], title)
            }
            XCTFail("a deleted plan is not edited")
        } catch DaemonError.notFound {}
        do {
            _ = try await coordinator.show(id: id)
            XCTFail("the deleted plan is not shown")
        } catch DaemonError.notFound {}
    }
}
