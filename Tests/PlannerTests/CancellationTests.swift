import XCTest
@testable import Planner

/// The planner checks for cancellation between queries and never swallows `CancellationError`.
final class CancellationTests: XCTestCase {
    let clock = FixedClock(instant: Fixture.morning)

    /// A port that cancels the task asking it, then answers normally (like an engine that does
    /// not notice cancellation itself).
    func cancellingPort() -> FakeRoutingPort {
        FakeRoutingPort(stops: RefinementTests.stops([Fixture.stopA, Fixture.stopB]), legs: { query in
            withUnsafeCurrentTask { $0?.cancel() }
            return try PlanBuilderTests.legs(query)
        })
    }

    func threePlan() throws -> RoutePlan {
        try RoutePlan(nodes: [Fixture.home, Fixture.stopA, Fixture.stopB, Fixture.office].map { PlanNode(place: $0) },
                      modes: [.walk, .transit, .walk])
    }

    /// Runs `body` in its own task so the test's task is never cancelled.
    func outcome(_ body: @escaping @Sendable () async throws -> Void) async -> Error? {
        await Task { () -> Error? in
            do { try await body(); return nil } catch { return error }
        }.value
    }

    func testACancelledRecomputeThrowsCancellationErrorAndStopsQuerying() async throws {
        let port = cancellingPort(), plan = try threePlan(), clock = clock
        let error = await outcome { _ = try await Planner(routing: port, clock: clock).computeLegs(plan) }
        XCTAssertTrue(error is CancellationError, "got \(String(describing: error))")
        let count = await port.queries.count
        XCTAssertEqual(count, 1)
    }

    func testACancellationErrorFromThePortIsRethrownNotTreatedAsAFailedLeg() async throws {
        let port = FakeRoutingPort(legs: { _ in throw CancellationError() }), plan = try threePlan(), clock = clock
        let error = await outcome { _ = try await Planner(routing: port, clock: clock).computeLegsReporting(plan) }
        XCTAssertTrue(error is CancellationError)
    }

    func testAnAlreadyCancelledTaskMakesNoQueryAtAll() async throws {
        let port = FakeRoutingPort(legs: PlanBuilderTests.legs), plan = try threePlan(), clock = clock
        let error = await outcome {
            withUnsafeCurrentTask { $0?.cancel() }
            _ = try await Planner(routing: port, clock: clock).computeLegs(plan)
        }
        XCTAssertTrue(error is CancellationError)
        let count = await port.totalQueries
        XCTAssertEqual(count, 0)
    }

    func testACancelledRefinementThrowsCancellationError() async throws {
        let port = cancellingPort(), clock = clock
        let plan = try RoutePlan(restoring: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.office)], modes: [.walk],
                                 legs: [Fixture.walk(125)], timePreference: .leaveNow, pace: .normal,
                                 locks: [:], pinned: nil, pending: [:])
        let error = await outcome { _ = try await Planner(routing: port, clock: clock).refine(plan) }
        XCTAssertTrue(error is CancellationError)
    }

    func testACancelledComparisonThrowsCancellationError() async throws {
        let port = cancellingPort(), clock = clock
        let error = await outcome {
            _ = try await Planner(routing: port, clock: clock)
                .compare(from: Fixture.home, to: Fixture.office, timePreference: .leaveNow, pace: .normal)
        }
        XCTAssertTrue(error is CancellationError)
    }
}
