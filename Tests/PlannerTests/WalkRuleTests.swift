import Foundation
import XCTest
@testable import Planner

/// The one walk rule (`Planner.walkOrRide`) of inserted hops, presets, day plans and the rides
/// an edit computes: walking no slower walks, and so does a ride that walks farther to and from
/// its stops than the whole hop on foot (it takes the traveller away to walk back), even when
/// street and footpath timings make it look faster.
final class WalkRuleTests: XCTestCase {
    private let leaving = Date(timeIntervalSince1970: 1_641_970_800)  // 2022-01-12 09:00 in Helsinki

    /// A reason in words before any leg is computed for it: its figures as judged.
    private func words(_ choice: (mode: TravelMode, reason: ModeNote?)) -> String? {
        choice.reason?.words(mode: choice.mode, leg: nil, leaving: nil, arriving: nil)
    }

    func testARideThatWalksFartherThanTheWholeHopIsWalkedAndSaysSo() {
        let choice = Planner.walkOrRide(walking: 300, riding: 240, inherited: .transit, leaving: leaving,
                                        distances: Planner.WalkedDistances(riding: 457, walking: 93))
        XCTAssertEqual(choice.mode, .walk)
        XCTAssertEqual(words(choice), "walked: the ride walks 457 m to and from its stops, more than the whole way on foot (93 m, 5 min)")
    }

    func testAFasterRideThatWalksLessRides() {
        let choice = Planner.walkOrRide(walking: 1_680, riding: 720, inherited: .walk, leaving: leaving,
                                        distances: Planner.WalkedDistances(riding: 400, walking: 2_300))
        XCTAssertEqual(choice.mode, .transit)
        XCTAssertEqual(words(choice), "by transit: 12 min door to door from its departure (walks and waits included) where walking takes 28 min")
    }

    func testWalkingNoSlowerWalksWhateverTheRideWalks() {
        let choice = Planner.walkOrRide(walking: 360, riding: 540, inherited: .transit, leaving: leaving,
                                        distances: Planner.WalkedDistances(riding: 0, walking: 450))
        XCTAssertEqual(choice.mode, .walk)
        XCTAssertEqual(words(choice), "walked: walking (6 min) is no slower than transit (9 min door to door, the wait for the ride included)")
    }
}
