import XCTest
@testable import Planner

/// Ramer–Douglas–Peucker with a tolerance in metres, iterative.
final class SimplificationTests: XCTestCase {
    /// A point `east`/`north` metres from Tampere centre.
    func point(_ east: Double, _ north: Double) -> Coordinate { Fixture.place("", east: east, north: north).coordinate }

    func testAStraightLineKeepsOnlyItsEnds() {
        let line = (0...100).map { point(Double($0) * 10, 0) }
        XCTAssertEqual(simplify(line, toleranceMetres: 1), [line[0], line[100]])
    }

    func testACornerFartherThanTheToleranceIsKept() {
        let path = [point(0, 0), point(500, 0), point(1_000, 0), point(1_000, 500), point(1_000, 1_000)]
        XCTAssertEqual(simplify(path, toleranceMetres: 5), [path[0], path[2], path[4]])
    }

    func testADeviationWithinTheToleranceInMetresIsDropped() {
        let path = [point(0, 0), point(500, 4), point(1_000, 0)]
        XCTAssertEqual(simplify(path, toleranceMetres: 5), [path[0], path[2]])
        XCTAssertEqual(simplify(path, toleranceMetres: 3), path)
    }

    func testTheToleranceMeansMetresAtAnyLatitude() {
        // 4 m off the line near the equator and near the pole behaves the same.
        for latitude in [0.0, 70.0] {
            let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
            let lonStep = 500 / (metresPerDegree * cos(latitude * .pi / 180))
            let path = [Coordinate(latitude: latitude, longitude: 10),
                        Coordinate(latitude: latitude + 4 / metresPerDegree, longitude: 10 + lonStep),
                        Coordinate(latitude: latitude, longitude: 10 + 2 * lonStep)]
            XCTAssertEqual(simplify(path, toleranceMetres: 5).count, 2, "\(latitude)")
            XCTAssertEqual(simplify(path, toleranceMetres: 3).count, 3, "\(latitude)")
        }
    }

    func testAPathAcrossTheAntimeridianIsMeasuredTheShortWay() {
        let path = [Coordinate(latitude: 0, longitude: 179.999), Coordinate(latitude: 0, longitude: 180),
                    Coordinate(latitude: 0, longitude: -179.999)]
        XCTAssertEqual(simplify(path, toleranceMetres: 1).count, 2)
    }

    func testALongZigZagKeepsEveryCorner() {
        // Worst case for the split order (each split peels off one point), handled by the explicit stack.
        let zigzag = (0..<3_000).map { point(Double($0) * 10, $0.isMultiple(of: 2) ? 0 : 50) }
        let simplified = simplify(zigzag, toleranceMetres: 5)
        XCTAssertEqual(simplified.count, zigzag.count)
    }

    func testShortInputsAndBadTolerancesAreReturnedUnchanged() {
        let two = [point(0, 0), point(10, 10)]
        XCTAssertEqual(simplify(two, toleranceMetres: 100), two)
        XCTAssertEqual(simplify([], toleranceMetres: 1), [])
        let three = [point(0, 0), point(5, 1), point(10, 0)]
        XCTAssertEqual(simplify(three, toleranceMetres: -1), three)
        XCTAssertEqual(simplify(three, toleranceMetres: .nan), three)
    }
}
