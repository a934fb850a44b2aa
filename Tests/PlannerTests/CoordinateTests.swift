import XCTest
@testable import Planner

final class CoordinateTests: XCTestCase {
    func testValidCoordinatesIncludeTheLimits() throws {
        XCTAssertNoThrow(try Coordinate(validatingLatitude: 90, longitude: 180))
        XCTAssertNoThrow(try Coordinate(validatingLatitude: -90, longitude: -180))
        XCTAssertNoThrow(try Coordinate(validatingLatitude: 61.4981, longitude: 23.7610))
    }

    func testOutOfRangeOrNonFiniteCoordinatesAreRejectedWithTheirValues() {
        for (lat, lon) in [(90.0001, 0.0), (-91, 0), (0, 180.5), (0, -181), (.nan, 0), (0, .infinity), (-.infinity, 0)] {
            XCTAssertThrowsError(try Coordinate(validatingLatitude: lat, longitude: lon)) { error in
                XCTAssertEqual((error as? PlannerError)?.code, "invalid_coordinate", "\(lat),\(lon)")
            }
            XCTAssertFalse(Coordinate(latitude: lat, longitude: lon).isValid)
        }
    }

    func testHaversineUsesTheMeanEarthRadius() {
        // One degree of latitude on a sphere of radius 6,371,008.8 m.
        let a = Coordinate(latitude: 0, longitude: 0), b = Coordinate(latitude: 1, longitude: 0)
        XCTAssertEqual(a.distance(to: b), 6_371_008.8 * .pi / 180, accuracy: 1e-6)
    }

    func testHaversineMatchesAKnownCityDistance() {
        // Tampere railway station → Helsinki railway station, about 160 km as the crow flies.
        let tampere = Coordinate(latitude: 61.4985, longitude: 23.7737)
        let helsinki = Coordinate(latitude: 60.1719, longitude: 24.9414)
        XCTAssertEqual(tampere.distance(to: helsinki) / 1000, 160.5, accuracy: 0.5)
    }

    func testDistanceAcrossTheAntimeridianIsTheShortWayRound() {
        let west = Coordinate(latitude: 0, longitude: 179.9), east = Coordinate(latitude: 0, longitude: -179.9)
        let expected = 0.2 * .pi / 180 * Coordinate.earthRadiusMetres
        XCTAssertEqual(west.distance(to: east), expected, accuracy: 0.01)
        XCTAssertEqual(east.distance(to: west), expected, accuracy: 0.01)
    }

    func testDistanceIsSymmetricAndZeroToItself() {
        let a = Coordinate(latitude: 35.6993, longitude: 139.7649), b = Coordinate(latitude: 35.6812362, longitude: 139.7671248)
        XCTAssertEqual(a.distance(to: b), b.distance(to: a), accuracy: 1e-9)
        XCTAssertEqual(a.distance(to: a), 0)
    }

    func testMidpointAcrossTheAntimeridianStaysNearIt() {
        let mid = Coordinate(latitude: 10, longitude: 179).midpoint(to: Coordinate(latitude: 10, longitude: -179))
        XCTAssertEqual(abs(mid.longitude), 180, accuracy: 0.01)
        XCTAssertEqual(mid.latitude, 10, accuracy: 0.01)
    }

    func testMidpointIsEquidistantFromBothEnds() {
        let a = Coordinate(latitude: 61.4981, longitude: 23.7610), b = Coordinate(latitude: 61.45, longitude: 23.85)
        let mid = a.midpoint(to: b)
        XCTAssertEqual(mid.distance(to: a), mid.distance(to: b), accuracy: 0.01)
        XCTAssertEqual(mid.distance(to: a) * 2, a.distance(to: b), accuracy: 0.01)
    }
}
