@testable import Daemon
import Foundation
import Synchronization
import WireProtocol
import XCTest

/// `status`'s refresh queue tells what happened to each plan a timetable change queued: a refresh
/// that stepped aside for a user's edit is tried again and counted as refreshed once it is, and
/// one given up after `maximumAttempts` tries is counted as failed, not lost; a copy of a plan
/// owed a refresh is owed one too.
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

    /// A refresh of plans 7 and 8 that holds plan 7 until `release` is signalled, recording each plan refreshed.
    private final class HeldPlan: PlanRefreshing {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let refreshed = Mutex<[Int64]>([])

        func plans(inRegion region: String) async throws -> [Int64] { [7, 8] }

        func run(planID id: Int64, live: Bool) async throws -> PlanRefreshJob.Outcome {
            if id == 7 {
                started.signal()
                await withCheckedContinuation { done in DispatchQueue.global().async { self.release.wait(); done.resume() } }
            }
            refreshed.withLock { $0.append(id) }
            return .refreshed
        }
    }

    /// The queue once it drained (bounded: the refresher runs on its own, as the daemon's
    /// services run it, and stops when the test is done with it).
    private func drained(_ job: some PlanRefreshing, onStart: (BackgroundRefresher) -> Void = { _ in }) async throws -> BackgroundRefresher.QueueState {
        let refresher = BackgroundRefresher(job: job, owedFile: nil, logger: DaemonLogger(level: .error) { _ in })
        let running = Task { await refresher.run() }
        defer { running.cancel() }
        onStart(refresher)
        await refresher.timetableChanged(region: "tampere")
        for _ in 0..<6000 {
            let queue = refresher.state
            if queue.running == nil, queue.queued.isEmpty { return queue }
            try await Task.sleep(for: .milliseconds(5))
        }
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

    func testACopyOfAPlanOwedARefreshIsRefreshedToo() async throws {
        let job = HeldPlan()
        let refresher = BackgroundRefresher(job: job, owedFile: nil, logger: DaemonLogger(level: .error) { _ in })
        let running = Task { await refresher.run() }
        await refresher.timetableChanged(region: "tampere")
        await withCheckedContinuation { done in DispatchQueue.global().async { job.started.wait(); done.resume() } }
        // Plan 7 is being refreshed, 8 waits: copies of both (as 20, 21) are owed one; a copy of
        // plan 9 (not owed) and a copy of 8 said owed only when it began reading are handled too.
        let owed = [await refresher.isOwed(7), await refresher.isOwed(8), await refresher.isOwed(9)]
        XCTAssertEqual(owed, [true, true, false])
        await refresher.planCopied(from: 7, as: 20, wasOwed: true)
        await refresher.planCopied(from: 8, as: 21, wasOwed: false) // still queued now
        await refresher.planCopied(from: 9, as: 22, wasOwed: false)
        XCTAssertEqual(refresher.state.queued, [8, 20, 21])
        job.release.signal()
        for _ in 0..<6000 where refresher.state.running != nil || !refresher.state.queued.isEmpty {
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(job.refreshed.withLock { $0 }, [7, 8, 20, 21], "the copies of owed plans are refreshed, the other is not")
        XCTAssertEqual(refresher.state.refreshed, 4)
        // Once drained, nothing is owed: a copy made now keeps the refreshed legs it copied.
        await refresher.planCopied(from: 7, as: 23, wasOwed: false)
        XCTAssertEqual(refresher.state.queued, [])
        running.cancel()
        await running.value
    }

    func testASupersededPlanAlreadyQueuedAgainIsRefreshedOnceMore() async throws {
        let job = RequeuedWhileEdited()
        let queue = try await drained(job) { refresher in job.refresher.withLock { $0 = refresher } }
        XCTAssertEqual(job.tries.withLock { $0 }, 2, "queued once, not once for the timetable and once for the retry")
        XCTAssertEqual(queue.refreshed, 1)
        XCTAssertEqual(queue.failed, 0)
    }
}
