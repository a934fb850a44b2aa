import Planner
import Streets
import XCTest

/// `StreetReach`: which points are within Routino's snapping distance of a street.
final class StreetReachTests: XCTestCase {
    /// A point `north` metres north and `east` metres east of 61.5° N, 23.76° E.
    private func point(north: Double, east: Double) -> Coordinate {
        Coordinate(latitude: 61.5 + north / 111_195, longitude: 23.76 + east / (111_195 * cos(61.5 * .pi / 180)))
    }

    func testAPointIsReachedWithinTheSnappingDistanceOfAnyPartOfAStreetAndNotBeyond() {
        // One straight street 5 km long, west to east: its middle is far from both of its points.
        let street = StreetLine(streetClass: .minor, points: [point(north: 0, east: 0), point(north: 0, east: 5_000)])
        let reach = StreetReach(streets: [street])
        XCTAssertEqual(reach.distance, StreetRouter.snapLimit)
        XCTAssertTrue(reach.reaches(point(north: 950, east: 2_500)), "950 m beside the middle of the street")
        XCTAssertFalse(reach.reaches(point(north: 1_050, east: 2_500)), "1050 m beside it")
        XCTAssertTrue(reach.reaches(point(north: -600, east: 5_700)), "about 920 m past its east end")
        XCTAssertFalse(reach.reaches(point(north: 0, east: 6_100)), "1100 m past its east end")
        XCTAssertFalse(StreetReach(streets: []).reaches(point(north: 0, east: 0)), "no street reaches nothing")
    }

    func testAOnePointStreetStillCounts() {
        let reach = StreetReach(streets: [StreetLine(streetClass: .path, points: [point(north: 0, east: 0)])], distance: 100)
        XCTAssertTrue(reach.reaches(point(north: 60, east: 60)))
        XCTAssertFalse(reach.reaches(point(north: 80, east: 80)))
    }
}
