import Foundation
import Planner
@testable import Streets
import TestSupport
import XCTest

/// Bike legs on the real Tampere streets, on Routino's bicycle profile.
final class BikeRouteTests: XCTestCase {
    func testABikeLegAcrossTownIsFasterThanWalkingAndSlowerThanDriving() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        let from = TampereFixture.keskustori, to = TampereFixture.hervanta
        let bike = try await router.leg(from: from, to: to, mode: .bike)
        let walk = try await router.leg(from: from, to: to, mode: .walk)
        let car = try await router.leg(from: from, to: to, mode: .car)
        XCTAssertEqual(bike.mode, .bike)
        let distance = try XCTUnwrap(bike.distance)
        XCTAssertGreaterThanOrEqual(distance, from.distance(to: to))
        XCTAssertLessThan(distance, from.distance(to: to) * 2)
        XCTAssertLessThan(bike.expectedTravelTime, walk.expectedTravelTime)
        XCTAssertGreaterThan(bike.expectedTravelTime, car.expectedTravelTime)
        let averageKmh = distance / bike.expectedTravelTime * 3.6
        XCTAssertTrue((10...20).contains(averageKmh), "average city cycling speed \(averageKmh) km/h")
        XCTAssertLessThan(try XCTUnwrap(bike.geometry.first).distance(to: from), 50)
        XCTAssertLessThan(try XCTUnwrap(bike.geometry.last).distance(to: to), 50)
    }

    func testABikeLegRidesNoMotorwayStepsOrWayTaggedBicycleNo() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        let forbidden = try ForbiddenWays(osm: TampereFixture.osmFile)
        XCTAssertGreaterThan(forbidden.ways.count, 100, "the extract has motorways, steps and bicycle=no ways")
        let from = TampereFixture.keskustori, to = TampereFixture.hervanta
        let bike = try await router.leg(from: from, to: to, mode: .bike)
        XCTAssertEqual(forbidden.usedPieces(of: bike.geometry), [], "bike legs use only bicycle-legal ways")
        // The check can fail: the car between the same points takes the motorway.
        let car = try await router.leg(from: from, to: to, mode: .car)
        XCTAssertFalse(forbidden.usedPieces(of: car.geometry).isEmpty, "the car route uses a way closed to bicycles")
    }
}

/// Ways a bicycle may not use, read from the OSM file by GDAL (independently of Routino):
/// motorways and their links, steps, and every way tagged `bicycle=no`.
struct ForbiddenWays {
    var ways: [[Coordinate]] = []

    init(osm: URL) throws {
        let temporary = try TemporaryDirectory("forbidden-ways")
        defer { temporary.remove() }
        let output = temporary.url.appendingPathComponent("forbidden.geojson")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ogr2ogr")
        process.arguments = ["-f", "GeoJSON", output.path, osm.path, "-dialect", "SQLite", "-sql",
                             "SELECT geometry, highway FROM lines WHERE highway IN ('motorway', 'motorway_link', 'steps') "
                                + "OR other_tags LIKE '%\"bicycle\"=>\"no\"%'"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "ogr2ogr")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
        for feature in json?["features"] as? [[String: Any]] ?? [] {
            guard let geometry = feature["geometry"] as? [String: Any],
                  let points = geometry["coordinates"] as? [[Double]] else { continue }
            ways.append(points.filter { $0.count == 2 }.map { Coordinate(latitude: $0[1], longitude: $0[0]) })
        }
    }

    /// Consecutive points of `line` that are consecutive nodes of a forbidden way (within 1 m):
    /// the line travels along that way, not merely across it.
    func usedPieces(of line: [Coordinate]) -> [String] {
        var used: [String] = []
        for (a, b) in zip(line, line.dropFirst()) {
            for way in ways {
                for (p, q) in zip(way, way.dropFirst())
                where (a.distance(to: p) < 1 && b.distance(to: q) < 1) || (a.distance(to: q) < 1 && b.distance(to: p) < 1) {
                    used.append("\(a.latitude),\(a.longitude) → \(b.latitude),\(b.longitude)")
                }
            }
        }
        return used
    }
}
