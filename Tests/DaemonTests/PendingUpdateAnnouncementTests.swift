import Daemon
import Foundation
import Planner
import Synchronization
import TestSupport
import WireProtocol
import XCTest

/// `pending_update` tells of a proposal the stored computation made (issue 27, review): a user's
/// edit of a plan that already has one proposes nothing, so it sends none (the reminders turn
/// each into a desktop notification).
final class PendingUpdateAnnouncementTests: OneStoredPlanTestCase {
    /// The events published, in order.
    private final class Published: Sendable {
        let events = Mutex<[DaemonEvent]>([])
    }

    private var coordinator: PlanRepository!
    private var hub: EventHub!
    private var listening: Task<Void, Never>?
    private let published = Published()

    override func setUp() async throws {
        try await super.setUp()
        let events = EventHub()
        let published = published
        let stream = events.listen()
        listening = Task { for await event in stream { published.events.withLock { $0.append(event) } } }
        hub = events
        coordinator = PlanRepository(store: store, counters: DaemonCounters(), events: events)
    }

    override func tearDown() async throws {
        listening?.cancel()
        try await super.tearDown()
    }

    /// The `pending_update`s published so far: a marker event published after them has come
    /// through the listener's stream (in order), so every one before it has too.
    private func pendingUpdates() async -> [[Int]] {
        let marker = "marker \(UUID().uuidString)"
        hub.publish(.placeSaved(name: marker))
        var looks = 0
        while !published.events.withLock({ $0.contains { if case .placeSaved(name: marker) = $0 { true } else { false } } }) {
            looks += 1
            guard looks < 12_000 else { XCTFail("the listener's stream never delivered the marker"); break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return published.events.withLock { events in
            events.compactMap { if case .pendingUpdate(_, let segments) = $0 { segments } else { nil } }
        }
    }

    /// The plan with its leg computed (`seconds`) and a proposal of a `proposed`-second leg.
    private static func proposing(_ plan: RoutePlan, seconds: Double, proposed: Double) throws -> LegComputation {
        let key = plan.segmentKey(0)
        let leg = RouteLeg(mode: plan.modes[0], expectedTravelTime: seconds)
        let update = PendingSegmentUpdate(segment: key, selected: leg, proposal: .ride(RouteLeg(mode: plan.modes[0], expectedTravelTime: proposed)))
        let computed = try RoutePlan(restoring: plan.nodes, modes: plan.modes, legs: [leg], timePreference: plan.timePreference,
                                     pace: plan.pace, locks: plan.locks, pinned: plan.pinned, pending: [key: update])
        return LegComputation(plan: computed, failures: [], queryCount: 1)
    }

    /// A refresh (as `plan.edits`) proposing a `proposed`-second leg for segment 1.
    private func propose(_ proposed: Double) async throws {
        _ = try await coordinator.atomicChange(id: id, expectedGeneration: nil, dryRun: false) { plan, title in
            (try Self.proposing(plan, seconds: 100, proposed: proposed), [], title)
        }
    }

    func testAPlanEditsThatKeepsTheProposalSendsNoPendingUpdate() async throws {
        try await propose(90)
        let updates1 = await pendingUpdates()
        XCTAssertEqual(updates1, [[1]], "the new proposal is announced")
        _ = try await coordinator.atomicChange(id: id, expectedGeneration: nil, dryRun: false) { plan, _ in
            (try PlanRepositoryTests.withLeg(plan, seconds: 100), [], "renamed")
        }
        let updates2 = await pendingUpdates()
        XCTAssertEqual(updates2, [[1]], "the user's rename proposed nothing new")
        let shown = try await coordinator.show(id: id)
        XCTAssertEqual(shown.plan.pending.count, 1, "the proposal is still there")
    }

    func testAnEditThatKeepsTheProposalSendsNoPendingUpdate() async throws {
        try await propose(90)
        _ = try await coordinator.userEdit(id: id, title: "renamed", change: { $0 }) { plan in
            try PlanRepositoryTests.withLeg(plan, seconds: 100)
        }
        let updates3 = await pendingUpdates()
        XCTAssertEqual(updates3, [[1]], "the user's rename proposed nothing new")
    }

    func testAChangedProposalIsAnnouncedAgain() async throws {
        try await propose(90)
        try await propose(80)
        let updates4 = await pendingUpdates()
        XCTAssertEqual(updates4, [[1], [1]])
    }
}
