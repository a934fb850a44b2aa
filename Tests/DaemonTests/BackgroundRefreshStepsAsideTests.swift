@testable import Daemon
import Foundation
import Planner
import Store
import TestSupport
import XCTest

/// A background refresh never overrides a user's change (issue 27, review): while a user's
/// request on the plan is under way the refresh steps aside, and a user's edit made while the
/// refresh computes wins; the refresh is tried again later, and never brings back a deleted plan
/// or an old title.
final class BackgroundRefreshStepsAsideTests: OneStoredPlanTestCase {
    typealias Gate = PlanRepositoryTests.Gate

    private var coordinator: PlanRepository!

    override func setUp() async throws {
        try await super.setUp()
        coordinator = PlanRepository(store: store, counters: DaemonCounters(), events: EventHub())
    }

    /// The background refresh as `PlanService.refresh` runs it: every leg asked again (222 s),
    /// stored only if the plan is still at `generation` and no user's request is under way.
    private func refresh(at generation: Int64? = nil, held gate: Gate? = nil) async throws -> PlanRepository.Outcome {
        try await coordinator.atomicChange(id: id, expectedGeneration: generation, background: true) { plan, title in
            await gate?.pass()
            return (try PlanRepositoryTests.withLeg(plan.refreshing(), seconds: 222), [], title)
        }
    }

    private func heldRefresh(_ gate: Gate) -> Task<PlanRepository.Outcome, Error> {
        let coordinator = coordinator!, id = id
        return Task.detached {
            try await coordinator.atomicChange(id: id, expectedGeneration: 1, background: true) { plan, title in
                await gate.pass()
                return (try PlanRepositoryTests.withLeg(plan.refreshing(), seconds: 222), [], title)
            }
        }
    }

    /// A user's computation alone (as a preset: it picks the car, 111 s), held at `gate`.
    private func preset(held gate: Gate) -> Task<PlanRepository.Outcome, Error> {
        let coordinator = coordinator!, id = id
        return Task.detached {
            try await coordinator.userEdit(id: id, change: nil) { plan in
                await gate.pass()
                return try PlanRepositoryTests.withLeg(try plan.changingMode(ofSegment: 0, to: .car), seconds: 111)
            }
        }
    }

    /// A user's change to the car, computed at once (111 s), optionally renaming the plan.
    private func userEdit(title: String? = nil) async throws -> PlanRepository.Outcome {
        let coordinator = coordinator!, id = id
        return try await coordinator.userEdit(id: id, title: title, change: { try $0.changingMode(ofSegment: 0, to: .car) }) { plan in
            try PlanRepositoryTests.withLeg(plan, seconds: 111)
        }
    }

    private func assertStoredIsTheUsersCar(generation: Int64, file: StaticString = #filePath, line: UInt = #line) async throws {
        let stored = try await store.read(Plans.load(id))
        XCTAssertEqual(stored.plan.modes, [.car], file: file, line: line)
        XCTAssertEqual(stored.plan.legs.first??.expectedTravelTime, 111, "the refresh did not overwrite the user's plan", file: file, line: line)
        XCTAssertEqual(stored.generation, generation, file: file, line: line)
    }

    private func assertStepsAside(_ refresh: () async throws -> PlanRepository.Outcome, file: StaticString = #filePath,
                                  line: UInt = #line) async {
        do {
            let outcome = try await refresh()
            XCTFail("the refresh was stored (generation \(outcome.generation)) instead of stepping aside", file: file, line: line)
        } catch DaemonError.conflict, DaemonError.staleGeneration {
        } catch {
            XCTFail("the refresh failed otherwise than stepping aside: \(error)", file: file, line: line)
        }
    }

    func testAUsersPresetComputingWhenARefreshComesIsAnsweredWithItsOwnPlan() async throws {
        let gate = Gate()
        let user = preset(held: gate)
        await gate.waitUntilEntered()
        await assertStepsAside { try await refresh() }
        await gate.release()
        let answered = try await user.value
        XCTAssertEqual(answered.plan.modes, [.car], "the user's preset is answered with its own plan, not the refresh's")
        XCTAssertEqual(answered.plan.legs.first??.expectedTravelTime, 111)
        XCTAssertEqual(answered.generation, 2)
        try await assertStoredIsTheUsersCar(generation: 2)
    }

    func testAUsersEditWhileARefreshComputesIsAnsweredAtOnceAndTheRefreshStoresNothing() async throws {
        let gate = Gate()
        let refreshing = heldRefresh(gate)
        await gate.waitUntilEntered()
        let answered = try await userEdit() // not held by the refresh under way
        XCTAssertEqual(answered.plan.modes, [.car])
        XCTAssertEqual(answered.plan.legs.first??.expectedTravelTime, 111)
        XCTAssertEqual(answered.generation, 2)
        await gate.release()
        await assertStepsAside { try await refreshing.value }
        try await assertStoredIsTheUsersCar(generation: 2)
    }

    /// A user's request is prepared (places searched, departures asked) before its change: a
    /// refresh stored meanwhile would make it fail (`expected_generation`, or "the plan changed
    /// while pinning").
    func testARefreshStepsAsideWhileAUsersRequestIsBeingPrepared() async throws {
        let gate = Gate()
        let coordinator = coordinator!, id = id
        let user = Task.detached {
            try await coordinator.apply(to: id, policy: .edit, expected: 1) { _, _ in
                await gate.pass() // preparing
                return PlanChanges(change: { try $0.changingMode(ofSegment: 0, to: .car) }) { plan in
                    try PlanRepositoryTests.withLeg(plan, seconds: 111)
                }
            }
        }
        await gate.waitUntilEntered()
        await assertStepsAside { try await refresh() }
        await gate.release()
        let answered = try await user.value
        XCTAssertEqual(answered.generation, 2, "the user's edit at generation 1 was not refused because of the refresh")
        try await assertStoredIsTheUsersCar(generation: 2)
    }

    func testARenameWhileARefreshComputesIsNotUndone() async throws {
        let gate = Gate()
        let refreshing = heldRefresh(gate)
        await gate.waitUntilEntered()
        _ = try await userEdit(title: "renamed")
        await gate.release()
        await assertStepsAside { try await refreshing.value }
        let stored = try await store.read(Plans.load(id))
        XCTAssertEqual(stored.title, "renamed")
    }

    func testADeletedPlanIsNotBroughtBackByARefreshThatWasComputing() async throws {
        let gate = Gate()
        let refreshing = heldRefresh(gate)
        await gate.waitUntilEntered()
        try await store.write(Plans.delete(id)) // as `PlanService.delete`
        await coordinator.forget(id: id)
        await gate.release()
        do {
            _ = try await refreshing.value
            XCTFail("a refresh of a deleted plan was stored")
        } catch DaemonError.notFound {}
        do {
            _ = try await store.read(Plans.load(id))
            XCTFail("the deleted plan is back")
        } catch StoreError.notFound {}
    }

    /// The other direction: a refresh that stepped aside is stored once the user is done
    /// (`PlanRefreshJob` waits for `untilFree`, then refreshes the plan as it is then).
    func testARefreshThatSteppedAsideIsStoredOnThePlanAsTheUserLeftItOnceItIsFree() async throws {
        let gate = Gate()
        let user = preset(held: gate)
        await gate.waitUntilEntered()
        await assertStepsAside { try await refresh() }
        let coordinator = coordinator!, id = id
        let waiting = Task.detached { await coordinator.untilFree(id) }
        await gate.release()
        _ = try await user.value
        await waiting.value
        let busy = await coordinator.isBusy(id)
        XCTAssertFalse(busy)
        let shown = try await coordinator.show(id: id)
        let refreshed = try await refresh(at: shown.generation)
        XCTAssertEqual(refreshed.generation, 3)
        XCTAssertEqual(refreshed.plan.modes, [.car], "refreshed on top of the user's preset")
        let stored = try await store.read(Plans.load(id))
        XCTAssertEqual(stored.plan.legs.first??.expectedTravelTime, 222)
        XCTAssertEqual(stored.generation, 3)
    }

    /// The refresher's `stop` cancels a refresh waiting for a busy plan: the wait ends.
    func testWaitingForAFreePlanEndsWhenCancelled() async throws {
        let gate = Gate()
        let user = preset(held: gate)
        await gate.waitUntilEntered()
        let coordinator = coordinator!, id = id
        let waiting = Task.detached { await coordinator.untilFree(id) }
        while coordinator.freeWaiterCount == 0 { await Task.yield() } // asleep, not ending at its first check
        waiting.cancel()
        await waiting.value
        let busy = await coordinator.isBusy(id)
        XCTAssertTrue(busy, "the wait ended by cancellation, while the user's preset still computes")
        await gate.release()
        _ = try await user.value
    }
}
