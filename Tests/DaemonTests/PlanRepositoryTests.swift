import Daemon
import Foundation
import Planner
import SQLite
import Store
import Synchronization
import TestSupport
import XCTest

/// The coordinator's generations, driven step by step: a computation that finishes after a
/// newer edit must not overwrite it.
final class PlanRepositoryTests: OneStoredPlanTestCase {
    /// Lets a test hold a computation until it says so (and ignores cancellation on purpose,
    /// like an engine that answers anyway).
    actor Gate {
        private var entered = false
        private var enteredWaiters: [CheckedContinuation<Void, Never>] = []
        private var released = false
        private var releaseWaiters: [CheckedContinuation<Void, Never>] = []

        func pass() async {
            entered = true
            enteredWaiters.forEach { $0.resume() }
            enteredWaiters = []
            if released { return }
            await withCheckedContinuation { releaseWaiters.append($0) }
        }

        func waitUntilEntered() async {
            if entered { return }
            await withCheckedContinuation { enteredWaiters.append($0) }
        }

        func release() {
            released = true
            releaseWaiters.forEach { $0.resume() }
            releaseWaiters = []
        }
    }

    static func withLeg(_ plan: RoutePlan, seconds: Double) throws -> LegComputation {
        let legs = plan.modes.map { Optional(RouteLeg(mode: $0, expectedTravelTime: seconds)) }
        let computed = try RoutePlan(restoring: plan.nodes, modes: plan.modes, legs: legs, timePreference: plan.timePreference,
                                     pace: plan.pace, locks: plan.locks, pinned: plan.pinned, pending: plan.pending)
        return LegComputation(plan: computed, failures: [], queryCount: plan.segmentCount)
    }

    /// Sets segment 1 to car; its computation waits at the gate and then returns a stale result.
    static func heldEdit(_ coordinator: PlanRepository, id: Int64, gate: Gate) async throws -> PlanRepository.Outcome {
        try await coordinator.userEdit(id: id, change: { try $0.changingMode(ofSegment: 0, to: .car) }) { plan in
            await gate.pass()
            return try withLeg(plan, seconds: 111)
        }
    }

    func testResultOfASupersededEditIsNeverStored() async throws {
        let store = store!, id = id
        let coordinator = PlanRepository(store: store, counters: DaemonCounters(), events: EventHub())
        let gate = Gate()

        let first = Task.detached { try await PlanRepositoryTests.heldEdit(coordinator, id: id, gate: gate) }
        await gate.waitUntilEntered()
        let second = try await coordinator.userEdit(id: id, change: { try $0.changingMode(ofSegment: 0, to: .transit) }) { plan in
            try Self.withLeg(plan, seconds: 222)
        }
        XCTAssertEqual(second.generation, 3, "created at 1 (stored), the held edit took 2")
        XCTAssertEqual(second.plan.modes, [.transit])
        await gate.release()
        let firstOutcome = try await first.value

        let stored = try await store.read(Plans.load(id)).plan
        XCTAssertEqual(stored.modes, [.transit], "the older edit's result did not overwrite the newer one")
        XCTAssertEqual(stored.legs.first??.expectedTravelTime, 222)
        XCTAssertEqual(firstOutcome.plan.modes, [.transit], "the superseded edit answers with the newest plan")
        XCTAssertEqual(firstOutcome.generation, 3)
    }

    /// `plan.delete` with `expected_generation` (issue 44): the check and the delete are one
    /// step for the edits. An edit that comes after the check, while the store's delete is still
    /// to run, finds the plan gone; before, it was answered as done and then lost with the plan.
    func testAnEditAfterAGuardedDeletesCheckFindsThePlanGoneAndIsNeverAnsweredAsDone() async throws {
        let store = store!, id = id
        let coordinator = PlanRepository(store: store, counters: DaemonCounters(), events: EventHub())
        do {
            try await coordinator.delete(id: id, expectedGeneration: 2) { try await store.write(Plans.delete(id)) }
            XCTFail("the plan is at generation 1")
        } catch let error as DaemonError {
            XCTAssertEqual(error.code, "conflict")
        }
        try await coordinator.delete(id: id, expectedGeneration: 1) {
            do {
                _ = try await coordinator.userEdit(id: id, change: { try $0.changingMode(ofSegment: 0, to: .car) }) { try Self.withLeg($0, seconds: 1) }
                XCTFail("an edit after the delete's check is not done")
            } catch let error as DaemonError {
                XCTAssertEqual(error.code, "not_found")
            }
            try await store.write(Plans.delete(id))
        }
        do {
            _ = try await store.read(Plans.load(id))
            XCTFail("the plan is deleted")
        } catch StoreError.notFound {}
    }

    func testRefusedEditChangesNothing() async throws {
        let store = store!, id = id
        let original = try await store.read(Plans.load(id)).plan
        let coordinator = PlanRepository(store: store, counters: DaemonCounters(), events: EventHub())
        do {
            _ = try await coordinator.userEdit(id: id, change: { try $0.removingNode(at: 0) }) { try Self.withLeg($0, seconds: 1) }
            XCTFail("removing the origin must be refused")
        } catch let error as PlannerError {
            XCTAssertEqual(error.code, "cannot_remove_endpoint")
        }
        let stored = try await store.read(Plans.load(id)).plan
        XCTAssertEqual(stored, original)
        let outcome = try await coordinator.show(id: id)
        XCTAssertEqual(outcome.generation, 1, "a refused edit does not bump the generation (1: as created)")
    }

    /// The coordinator writes outside its critical section: while plan A's edit is held in its
    /// durable write (another connection holds SQLite's write lock, so the store's writer thread
    /// waits) and in its recompute, plan B is still shown (read on a reader thread). Before, the
    /// write ran inside the actor and `show` of B waited for it.
    func testShowingPlanBIsAnsweredWhileAnEditOfPlanAIsWritingAndRecomputing() async throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let store = try Store(path: path)
        let a = Place(name: "A", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))
        let b = Place(name: "B", coordinate: Coordinate(latitude: 61.45, longitude: 23.85))
        let planA = try await store.write(Plans.create(try RoutePlan(nodes: [PlanNode(place: a), PlanNode(place: b)], modes: [.walk]), title: "A"))
        let planB = try await store.write(Plans.create(try RoutePlan(nodes: [PlanNode(place: b), PlanNode(place: a)], modes: [.walk]), title: "B"))
        let coordinator = PlanRepository(store: store, counters: DaemonCounters(), events: EventHub())

        let lock = try Database(path: path, mode: .readWrite)
        try lock.execute("BEGIN IMMEDIATE") // every write of the store now waits
        let gate = Gate()
        let (changed, changeApplied) = AsyncStream<Void>.makeStream()
        let editFinished = Mutex(false)
        let edit = Task.detached {
            defer { editFinished.withLock { $0 = true } }
            return try await coordinator.userEdit(id: planA, change: { plan in
                changeApplied.yield()
                return try plan.changingMode(ofSegment: 0, to: .car)
            }) { plan in
                await gate.pass()
                return try PlanRepositoryTests.withLeg(plan, seconds: 60)
            }
        }
        for await _ in changed { break } // the edit of A is inside the coordinator now, about to write

        let whileWriting = try await coordinator.show(id: planB)
        XCTAssertEqual(whileWriting.title, "B")
        XCTAssertFalse(editFinished.withLock { $0 }, "plan B was answered while plan A's edit was still writing")
        if !editFinished.withLock({ $0 }) {
            await gate.waitUntilEntered()
            let whileRecomputing = try await coordinator.show(id: planB)
            XCTAssertEqual(whileRecomputing.title, "B")
        }
        // Plan A is shown once its write landed (a generation is shown only when stored).
        let showA = Task.detached { try await coordinator.show(id: planA) }

        try lock.execute("COMMIT")
        let aShown = try await showA.value
        XCTAssertEqual(aShown.plan.modes, [.car])
        XCTAssertEqual(aShown.generation, 2)
        await gate.release()
        let outcome = try await edit.value
        XCTAssertEqual(outcome.plan.modes, [.car])
        let storedA = try await store.read(Plans.load(planA)).plan
        XCTAssertEqual(storedA.legs.first??.expectedTravelTime, 60, "both writes landed, in order")
    }
}
