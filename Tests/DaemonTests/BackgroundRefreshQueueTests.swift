@testable import Daemon
import Foundation
import Synchronization
import WireProtocol
import XCTest

/// `status`'s refresh queue tells what happened to each plan a timetable change queued: a refresh
/// that stepped aside for a user's edit is tried again and counted as refreshed once it is, and
/// one given up after `maximumAttempts` tries is counted as failed, not lost.
final class BackgroundRefreshQueueTests: XCTestCase {
    /// A refresh whose plan 7 is edited by its user during the first `editedTries` tries.
    private final class EditedPlan: PlanRefreshing {
        let editedTries: Int
        let tries = Mutex(0)
        init(editedTries: Int) { self.editedTries = editedTries }

        func plans(inRegion region: String) async throws -> [Int64] { [7] }

        func run(planID id: Int64, live: Bool) async throws -> PlanRefreshJob.Outcome {
            let try_ = tries.withLock { $0 += 1; return $0 }
            return try_ <= editedTries ? .superseded : .refreshed
        }
    }

    /// A refresh of plan 7 during whose first try the timetable changes again (queuing the plan
    /// once more) and the user edits it.
    private final class RequeuedWhileEdited: PlanRefreshing {
        let refresher = Mutex<BackgroundRefresher?>(nil)
        let tries = Mutex(0)

        func plans(inRegion region: String) async throws -> [Int64] { [7] }

        func run(planID id: Int64, live: Bool) async throws -> PlanRefreshJob.Outcome {
            let try_ = tries.withLock { $0 += 1; return $0 }
            guard try_ == 1 else { return .refreshed }
            await refresher.withLock { $0 }?.timetableChanged(region: "tampere")
            return .superseded
        }
    }

    /// The queue once it drained (bounded: the refresher runs on its own).
    private func drained(_ job: some PlanRefreshing, onStart: (BackgroundRefresher) -> Void = { _ in }) async throws -> RefreshQueueDocument {
        let refresher = BackgroundRefresher(job: job, owedFile: nil, logger: DaemonLogger(level: .error) { _ in })
        onStart(refresher)
        await refresher.timetableChanged(region: "tampere")
        for _ in 0..<6000 {
            let queue = refresher.document
            if queue.running == nil, queue.queued.isEmpty { return queue }
            try await Task.sleep(for: .milliseconds(5))
        }
        await refresher.stop()
        throw CancellationError()
    }

    func testARefreshThatSteppedAsideIsRetriedAndCountedAsRefreshed() async throws {
        let job = EditedPlan(editedTries: 1)
        let queue = try await drained(job)
        XCTAssertEqual(job.tries.withLock { $0 }, 2)
        XCTAssertEqual(queue.retried, 1)
        XCTAssertEqual(queue.refreshed, 1, "the plan was refreshed on its second try")
        XCTAssertEqual(queue.failed, 0)
    }

    func testARefreshGivenUpAfterEveryTryWasEditedIsCountedAsFailed() async throws {
        let job = EditedPlan(editedTries: .max)
        let queue = try await drained(job)
        XCTAssertEqual(job.tries.withLock { $0 }, BackgroundRefresher.maximumAttempts)
        XCTAssertEqual(queue.retried, BackgroundRefresher.maximumAttempts - 1)
        XCTAssertEqual(queue.refreshed, 0)
        XCTAssertEqual(queue.failed, 1, "the plan that was never refreshed is in the counts")
    }

    func testASupersededPlanAlreadyQueuedAgainIsRefreshedOnceMore() async throws {
        let job = RequeuedWhileEdited()
        let queue = try await drained(job) { refresher in job.refresher.withLock { $0 = refresher } }
        XCTAssertEqual(job.tries.withLock { $0 }, 2, "queued once, not once for the timetable and once for the retry")
        XCTAssertEqual(queue.refreshed, 1)
        XCTAssertEqual(queue.failed, 0)
    }
}
