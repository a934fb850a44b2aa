import XCTest
@testable import Planner

/// A saved place's own fence size: enter within its radius, leave beyond 1.5 times it.
final class GeofenceRadiusTests: XCTestCase {
    func testTheExitRadiusKeepsTheWriteUpsProportion() {
        XCTAssertEqual(GeofenceRule.outsideMetres(forInside: GeofenceRule.insideMetres), GeofenceRule.outsideMetres)
        XCTAssertEqual(GeofenceRule.outsideMetres(forInside: 200), 300)
    }

    func testAWiderFenceEntersAndLeavesAtItsOwnRadii() {
        let center = Fixture.home.coordinate
        var tracker = GeofenceTracker(center: center, insideMetres: 200, outsideMetres: 300)
        var transitions: [GeofenceState] = []
        for (minute, north) in [400.0, 150, 250, 290, 310].enumerated() {
            let fix = LocationFix(coordinate: Fixture.place("", east: 0, north: north).coordinate, horizontalAccuracy: 10,
                                  timestamp: Fixture.at(Double(minute)))
            let (next, transition) = tracker.tracking(fix)
            tracker = next
            if let transition { transitions.append(transition.to) }
        }
        XCTAssertEqual(transitions, [.outside, .inside, .outside],
                       "150 m is inside a 200 m fence; 250 and 290 m are in its band; 310 m is beyond 300 m")
    }
}
