import Daemon
import Foundation
import Planner
import SQLite
import Store
import Synchronization
import TestSupport
import XCTest

/// How often one edit touches the store (issue 27): the plan is read once (`apply` keeps it for
/// the change), and an edit that is a computation alone (a preset, a rebuild, refine,
/// the start's recompute) writes the plan once, computed, and nothing before that.
final class EditStoreAccessTests: OneStoredPlanTestCase {
    func testAComputationAloneLeavesTheStoredPlanAsItWasUntilItIsStoredComputed() async throws {
        let coordinator = PlanRepository(store: store, counters: DaemonCounters(), events: EventHub())
        let gate = PlanRepositoryTests.Gate()
        let id = id
        let edit = Task.detached {
            try await coordinator.userEdit(id: id, change: nil) { plan in
                await gate.pass()
                return try PlanRepositoryTests.withLeg(plan.settingPace(.fast), seconds: 60)
            }
        }
        await gate.waitUntilEntered()
        // A computation alone takes its generation only once it is known to change the plan
        // (a refine that finds nothing keeps the plan's generation), so nothing is written
        // while it computes: the stored plan is the one before the edit, at its generation.
        let stored = try await store.read(Plans.load(id))
        XCTAssertEqual(stored.generation, 1, "no generation is taken before the computation ends")
        XCTAssertEqual(stored.plan.pace, .normal, "the plan is not written before it is computed")
        let pendingWhileComputing = try await store.read(Plans.withPendingLegs())
        XCTAssertEqual(pendingWhileComputing, [], "nothing was emptied, so nothing is marked for a recompute")
        await gate.release()

        let outcome = try await edit.value
        XCTAssertEqual(outcome.generation, 2)
        let computed = try await store.read(Plans.load(id))
        XCTAssertEqual(computed.plan.pace, .fast)
        XCTAssertEqual(computed.plan.legs.first??.expectedTravelTime, 60)
        XCTAssertEqual(computed.generation, 2)
        let pendingAfter = try await store.read(Plans.withPendingLegs())
        XCTAssertEqual(pendingAfter, [])
    }

    /// The plan an edit was prepared on is the one it changes, without a second read: a change
    /// made to the file behind the repository's back (which never happens in the daemon, the only
    /// writer of plans) is not seen by the edit.
    func testAnEditChangesThePlanItWasShownWithoutReadingItAgain() async throws {
        let coordinator = PlanRepository(store: store, counters: DaemonCounters(), events: EventHub())
        let id = id, databasePath = databasePath
        let shown = Mutex<String?>(nil)
        let outcome = try await coordinator.apply(to: id, policy: .edit) { _, title in
            shown.withLock { $0 = title }
            let behind = try Database(path: databasePath, mode: .readWrite)
            try behind.execute("UPDATE plan SET title = 'changed behind' WHERE id = \(id)")
            behind.close()
            return PlanChanges(change: { try $0.changingMode(ofSegment: 0, to: .car) }) {
                try PlanRepositoryTests.withLeg($0, seconds: 60)
            }
        }
        XCTAssertEqual(outcome.title, shown.withLock { $0 }, "the edit changed the plan as read for it")
        XCTAssertEqual(outcome.plan.modes, [.car])
    }
}
