import Foundation
@testable import Planner
import XCTest

/// `compare` asks its modes at once: the walk, car and bike legs are all in flight before any
/// is answered (the port below answers none until all three have been asked).
final class ParallelCompareTests: XCTestCase {
    /// Lets callers through only when `expected` of them are waiting; one waits at most 20 s (so a
    /// planner that asks one mode after another fails the test instead of hanging it).
    actor Rendezvous {
        let expected: Int
        private var waiting: [CheckedContinuation<Bool, Never>] = []
        private var arrived = 0
        init(expected: Int) { self.expected = expected }

        func arrive() async -> Bool {
            arrived += 1
            if arrived >= expected {
                waiting.forEach { $0.resume(returning: true) }
                waiting.removeAll()
                return true
            }
            let index = arrived
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(20))
                await self?.giveUp(index)
            }
            return await withCheckedContinuation { waiting.append($0) }
        }

        private func giveUp(_ index: Int) {
            guard !waiting.isEmpty, arrived < expected else { return }
            waiting.removeFirst().resume(returning: false)
        }
    }

    /// The shared fake, except that the direct walk, car and bike legs meet at the rendezvous first.
    struct MeetingPort: RoutingPort {
        let inner: FakeRoutingPort
        let meeting = Rendezvous(expected: 3)

        func leg(for query: LegQuery) async throws -> RouteLeg {
            if query.from == Fixture.home, query.to == Fixture.office, query.mode != .transit {
                guard await meeting.arrive() else { throw RoutingError.engineFailure("asked alone: the modes are not asked at once") }
            }
            return try await inner.leg(for: query)
        }
        func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
            try await inner.nearbyStops(around: coordinate, radius: radius, limit: limit)
        }
        func search(_ text: String, near: Coordinate?) async throws -> [Place] { [] }
        func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] { [try await leg(for: query)] }
    }

    func testCompareAsksWalkTransitCarAndBikeAtOnceAndKeepsTheirOrder() async throws {
        let port = MeetingPort(inner: FakeRoutingPort(stops: RefinementTests.stops(PlanBuilderTests.allStops), legs: PlanBuilderTests.legs))
        let comparisons = try await Planner(routing: port, clock: FixedClock(instant: Fixture.morning))
            .compare(from: Fixture.home, to: Fixture.office, timePreference: .leaveNow, pace: .normal)
        XCTAssertEqual(comparisons.map(\.mode), [.walk, .transit, .car, .bike])
        XCTAssertNil(comparisons[0].error, "\(comparisons[0])")
        XCTAssertNil(comparisons[2].error, "\(comparisons[2])")
        XCTAssertNil(comparisons[3].error, "\(comparisons[3])")
        XCTAssertEqual(comparisons.filter(\.isFastest).map(\.mode), [.car])
    }
}
