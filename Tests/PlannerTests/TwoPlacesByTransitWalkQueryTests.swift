import XCTest
@testable import Planner

/// A two-place transit plan says when walking is no slower; it asks for the walk only where the
/// straight line alone does not already walk longer than the ride (an 8 km street walk cost a
/// plan's creation 50 ms in the daemon bench).
final class TwoPlacesByTransitWalkQueryTests: XCTestCase {
    /// Walks at 5 km/h over 1.2× the straight line; rides take `rideMinutes` from 08:00.
    private func port(rideMinutes: Double) -> FakeRoutingPort {
        FakeRoutingPort { query in
            switch query.mode {
            case .walk: Fixture.walk(query.from.coordinate.distance(to: query.to.coordinate) * 1.2 / (5 / 3.6) / 60)
            default: Fixture.transit(departing: Fixture.morning, minutes: rideMinutes)
            }
        }
    }

    private func walksAsked(_ port: FakeRoutingPort) async -> Int { await port.queries.filter { $0.mode == .walk }.count }

    func testAFarPlanAsksNoWalk() async throws {
        let port = port(rideMinutes: 25)
        let plan = try await Planner(routing: port, clock: FixedClock(instant: Fixture.morning))
            .buildPlan(from: Fixture.home, to: Fixture.office, preset: .transit, timePreference: .departAt(Fixture.morning), pace: .normal)
        XCTAssertEqual(plan.modes, [.transit])
        let walks = await walksAsked(port)
        XCTAssertEqual(walks, 0, "10 km in a straight line walks longer than a 25-min ride")
        XCTAssertNil(plan.note(ofSegment: 0)?.mode)
    }

    func testANearPlanAsksTheWalkAndSaysWalkingIsNoSlower() async throws {
        let port = port(rideMinutes: 9)
        let near = Fixture.place("Near", east: 500)
        let plan = try await Planner(routing: port, clock: FixedClock(instant: Fixture.morning))
            .buildPlan(from: Fixture.home, to: near, preset: .transit, timePreference: .departAt(Fixture.morning), pace: .normal)
        let walks = await walksAsked(port)
        XCTAssertEqual(walks, 1)
        let note = try XCTUnwrap(plan.modeNote(ofSegment: plan.modes.firstIndex(of: .transit) ?? 0), "\(plan.modes)")
        XCTAssertTrue(note.contains("is no slower than the whole plan by transit"), "\(note)")
    }
}
