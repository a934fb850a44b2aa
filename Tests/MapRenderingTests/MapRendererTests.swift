import Foundation
import MapRendering
import PictureTestSupport
import Planner
import XCTest

/// Pictures: the requested size, the legs' colours where the legs are, the streets under them.
final class MapRendererTests: XCTestCase {
    let zone = TimeZone(identifier: "Europe/Helsinki")!
    let origin = Coordinate(latitude: 61.4981, longitude: 23.7610)

    func point(east: Double, north: Double) -> Coordinate {
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        return Coordinate(latitude: origin.latitude + north / metresPerDegree,
                          longitude: origin.longitude + east / (metresPerDegree * cos(origin.latitude * .pi / 180)))
    }

    /// Home → (walk 1.2 km with a bend) → Stop → (car 2 km) → Office.
    func geometry() throws -> PlanGeometry {
        let home = Place(name: "Home", coordinate: point(east: 0, north: 0))
        let stop = Place(name: "Stop", coordinate: point(east: 1_000, north: 600))
        let office = Place(name: "Office", coordinate: point(east: 3_000, north: 600))
        var walk = RouteLeg(mode: .walk, expectedTravelTime: 900, distance: 1_200)
        walk.geometry = [home.coordinate, point(east: 1_000, north: 0), stop.coordinate]
        var car = RouteLeg(mode: .car, expectedTravelTime: 240, distance: 2_000)
        car.geometry = [stop.coordinate, office.coordinate]
        let plan = try RoutePlan(restoring: [home, stop, office].map { PlanNode(place: $0) }, modes: [.walk, .car],
                                 legs: [walk, car], timePreference: .departAt(Date(timeIntervalSince1970: 1_641_974_400)),
                                 pace: .normal, locks: [:], pinned: nil, pending: [:])
        return PlanGeometry(plan: plan, times: plan.schedule(), toleranceMetres: 0)
    }

    /// A grey grid of streets across the whole area.
    var streets: [StreetLine] {
        stride(from: -500.0, through: 3_500, by: 250).map {
            StreetLine(streetClass: .minor, points: [point(east: $0, north: -500), point(east: $0, north: 1_100)])
        } + [StreetLine(streetClass: .major, points: [point(east: -500, north: 300), point(east: 3_500, north: 300)])]
    }

    func testThePNGHasTheRequestedSizeAndEachLegsColourAlongItsLine() throws {
        let geometry = try geometry()
        let scene = MapScene.plan(geometry, timeZone: zone)
        let png = try MapRenderer.render(scene, streets: streets, width: 640, height: 400, format: .png)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG signature")
        let pixels = try PNGPixels(png)
        XCTAssertEqual(pixels.width, 640)
        XCTAssertEqual(pixels.height, 400)

        let projection = MapRenderer.projection(for: scene, width: 640, height: 400)
        for line in geometry.lines {
            let color = MapStyle.color(of: line.mode)
            for (a, b) in zip(line.points, line.points.dropFirst()) {
                for t in [0.3, 0.5, 0.7] {  // away from the labelled nodes at the ends
                    let p = projection.pixel(of: Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * t,
                                                            longitude: a.longitude + (b.longitude - a.longitude) * t))
                    XCTAssertTrue(pixels.has(color, near: p.x, p.y), "\(line.mode) colour at \(p)")
                }
            }
        }
        // Where no leg runs (the empty corner south-east of the walk's bend) there is no leg colour.
        let empty = projection.pixel(of: point(east: 2_500, north: 100))
        XCTAssertFalse(pixels.has(MapStyle.walk, near: empty.x, empty.y, radius: 6))
        XCTAssertFalse(pixels.has(MapStyle.car, near: empty.x, empty.y, radius: 6))
    }

    func testABikeLegIsDrawnInItsOwnGreenNotInAnotherModesColour() throws {
        var geometry = try geometry()
        geometry.lines[1].mode = .bike
        let scene = MapScene.plan(geometry, timeZone: zone)
        let pixels = try PNGPixels(try MapRenderer.render(scene, streets: [], width: 400, height: 300, format: .png))
        let projection = MapRenderer.projection(for: scene, width: 400, height: 300)
        let middle = projection.pixel(of: point(east: 2_000, north: 600))
        XCTAssertTrue(pixels.has(MapStyle.bike, near: middle.x, middle.y))
        for other in [MapStyle.walk, MapStyle.car, MapStyle.transit] {
            XCTAssertNotEqual(other, MapStyle.bike)
            XCTAssertFalse(pixels.has(other, near: middle.x, middle.y, radius: 4))
        }
    }

    func testARidesRouteColourFromTheFeedIsUsed() throws {
        var geometry = try geometry()
        geometry.lines[1].mode = .transit
        geometry.lines[1].color = "00985F"
        let scene = MapScene.plan(geometry, timeZone: zone)
        let pixels = try PNGPixels(try MapRenderer.render(scene, streets: [], width: 400, height: 300, format: .png))
        let projection = MapRenderer.projection(for: scene, width: 400, height: 300)
        let middle = projection.pixel(of: point(east: 2_000, north: 600))
        XCTAssertTrue(pixels.has(MapColor(hex: "00985F")!, near: middle.x, middle.y))
        XCTAssertFalse(pixels.has(MapStyle.transit, near: middle.x, middle.y, radius: 4))
    }

    func testSVGIsAnSVGDocumentOfTheRequestedSize() throws {
        let svg = try MapRenderer.render(.plan(try geometry(), timeZone: zone), streets: streets,
                                         width: 500, height: 300, format: .svg)
        let text = try XCTUnwrap(String(data: svg, encoding: .utf8))
        XCTAssertTrue(text.hasPrefix("<?xml"))
        XCTAssertTrue(text.contains("<svg"))
        XCTAssertTrue(text.contains("width=\"500\""))
    }

    func testASizeOutOfRangeIsRefusedBeforeDrawing() throws {
        XCTAssertThrowsError(try MapRenderer.render(.plan(try geometry(), timeZone: zone), streets: [],
                                                    width: 10, height: 300, format: .png)) { error in
            XCTAssertEqual(error as? MapRenderingError, .invalidSize(width: 10, height: 300))
        }
    }

    func testTheProjectionRoundTripsAndPutsNorthUp() {
        let projection = MapProjection(fitting: [point(east: 0, north: 0), point(east: 1_000, north: 1_000)], width: 400, height: 400)
        let south = projection.pixel(of: point(east: 0, north: 0)), north = projection.pixel(of: point(east: 0, north: 1_000))
        XCTAssertLessThan(north.y, south.y)
        let back = projection.coordinate(atX: south.x, y: south.y)
        XCTAssertEqual(back.latitude, origin.latitude, accuracy: 1e-9)
        XCTAssertEqual(back.longitude, origin.longitude, accuracy: 1e-9)
        XCTAssertEqual(projection.metresPerPixel, 1_000 / (400 - 96), accuracy: 0.2)
    }
}
