import XCTest
@testable import Planner

/// The fence rule: unknown at first, inside ≤ 80 m, outside ≥ 120 m, hysteresis between,
/// untrustworthy or older fixes change nothing, and no repeated events.
final class GeofenceTests: XCTestCase {
    let center = Fixture.home.coordinate

    func fix(_ metresNorth: Double, accuracy: Double = 10, at minute: Double = 0) -> LocationFix {
        LocationFix(coordinate: Fixture.place("", east: 0, north: metresNorth).coordinate, horizontalAccuracy: accuracy,
                    timestamp: Fixture.at(minute))
    }

    func testTheInitialStateIsUnknownNotOutside() {
        XCTAssertEqual(GeofenceTracker(center: center).state, .unknown)
    }

    func testInsideAtEightyMetresOutsideAtOneHundredTwentyAndTheBandKeepsThePreviousState() {
        var state = GeofenceState.unknown
        var seen: [GeofenceState] = []
        for distance in [79.0, 85, 110, 119.9, 120, 100, 80] {
            state = GeofenceRule.nextState(previous: state, distance: distance, accuracy: 10)
            seen.append(state)
        }
        XCTAssertEqual(seen, [.inside, .inside, .inside, .inside, .outside, .outside, .inside])
    }

    func testAFixInTheBandLeavesAnUnknownStateUnknown() {
        XCTAssertEqual(GeofenceRule.nextState(previous: .unknown, distance: 100, accuracy: 10), .unknown)
    }

    func testAccuracyOutsideZeroToThirtyMetresChangesNothing() {
        for accuracy in [-1.0, 30.01, .nan, .infinity] {
            XCTAssertEqual(GeofenceRule.nextState(previous: .outside, distance: 20, accuracy: accuracy), .outside, "\(accuracy)")
        }
        XCTAssertEqual(GeofenceRule.nextState(previous: .inside, distance: 200, accuracy: 30), .outside)
        XCTAssertEqual(GeofenceRule.nextState(previous: .outside, distance: 0, accuracy: 0), .inside)
    }

    func testAnInvalidCoordinateChangesNothing() {
        let tracker = GeofenceTracker(center: center)
        let bad = LocationFix(coordinate: Coordinate(latitude: 91, longitude: 0), horizontalAccuracy: 5, timestamp: Fixture.at(0))
        let (next, transition) = tracker.tracking(bad)
        XCTAssertEqual(next, tracker)
        XCTAssertNil(transition)
    }

    func testTheTrackerReportsEachChangeOnceAndNotTheSameStateTwice() {
        var tracker = GeofenceTracker(center: center)
        var transitions: [GeofenceTransition] = []
        for (index, distance) in [50.0, 60, 100, 150, 160, 40].enumerated() {
            let (next, transition) = tracker.tracking(fix(distance, at: Double(index)))
            tracker = next
            if let transition { transitions.append(transition) }
        }
        XCTAssertEqual(transitions.map(\.to), [.inside, .outside, .inside])
        XCTAssertEqual(transitions.map(\.from), [.unknown, .inside, .outside])
        XCTAssertEqual(transitions.map(\.at), [Fixture.at(0), Fixture.at(3), Fixture.at(5)])
    }

    func testAnOlderFixNeverOverridesANewerOne() {
        let (inside, _) = GeofenceTracker(center: center).tracking(fix(10, at: 10))
        let (after, transition) = inside.tracking(fix(500, at: 5))
        XCTAssertEqual(after.state, .inside)
        XCTAssertEqual(after.lastFixTime, Fixture.at(10))
        XCTAssertNil(transition)
    }

    func testAnInaccurateFixDoesNotAdvanceTheLastFixTime() {
        let (inside, _) = GeofenceTracker(center: center).tracking(fix(10, at: 10))
        let (after, _) = inside.tracking(fix(500, accuracy: 65, at: 20))
        XCTAssertEqual(after, inside)
    }
}
