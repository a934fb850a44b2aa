import CCairo
import Foundation
import MapRendering
import PictureTestSupport
import Planner
import WireProtocol
import XCTest

/// A Tampere plan as geometry, as GeoJSON and GPX files GDAL opens, and as a picture, through
/// the real daemon and umctl.
final class PlanMapAndExportTests: TampereDaemonTestCase {
    func newPlan(_ from: String, _ to: String, mode: String) throws -> String {
        let plan = try harness.json(["plan", "new", from, to, "--mode", mode, "--at", Tampere.morning])
        return String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
    }

    /// Every line of `plan show --geometry` in travel order: a walk or car leg, or a transit leg's walks and rides.
    func lines(_ plan: PlanDocument) -> [(mode: String, points: [Coordinate])] {
        func coordinates(_ pairs: [[Double]]?) -> [Coordinate] { (pairs ?? []).map { Coordinate(latitude: $0[0], longitude: $0[1]) } }
        return plan.segments.flatMap { segment -> [(mode: String, points: [Coordinate])] in
            guard let leg = segment.leg else { return [] }
            guard segment.mode == .transit else { return [(segment.mode.rawValue, coordinates(leg.geometry))] }
            var parts: [(mode: String, points: [Coordinate])] = []
            for (k, walk) in leg.walks.enumerated() {
                parts.append(("walk", coordinates(walk.geometry)))
                if k < leg.rides.count { parts.append(("transit", coordinates(leg.rides[k].geometry))) }
            }
            return parts
        }
    }

    func show(_ id: String, tolerance: String? = nil) throws -> PlanDocument {
        let words = ["plan", "show", id, "--geometry"] + (tolerance.map { ["--tolerance", $0] } ?? [])
        return try harness.json(words).decode(as: PlanDocument.self)
    }

    /// `ogrinfo -ro -al -so FILE` as (layer name, feature count) pairs.
    func ogrinfo(_ file: URL) throws -> [(layer: String, features: Int)] {
        let result = try DaemonHarness.run("/usr/bin/ogrinfo", ["-ro", "-al", "-so", file.path], in: harness.directory)
        XCTAssertEqual(result.status, 0, "ogrinfo: \(result.stderr)")
        var layers: [(layer: String, features: Int)] = []
        for line in result.stdout.split(separator: "\n") {
            if line.hasPrefix("Layer name: ") { layers.append((String(line.dropFirst(12)), -1)) }
            if line.hasPrefix("Feature Count: "), !layers.isEmpty { layers[layers.count - 1].features = Int(line.dropFirst(15)) ?? -1 }
        }
        return layers
    }

    func testTheGeoJSONAndGPXOfATransitPlanOpenInOgrinfoWithALineOrTrackPerLegRideAndWalk() throws {
        let id = try newPlan(Tampere.keskustori, Tampere.hervanta, mode: "transit")
        let plan = try show(id)
        let drawn = lines(plan)
        XCTAssertTrue(drawn.contains { $0.mode == "transit" }, "a ride: \(drawn.map(\.mode))")
        XCTAssertTrue(drawn.allSatisfy { $0.points.count >= 2 }, "every line has geometry")

        let geojson = harness.directory.appendingPathComponent("plan.geojson")
        XCTAssertEqual(try harness.umctl(["plan", "export", id, "-o", geojson.path]).status, 0)
        let geoLayers = try ogrinfo(geojson)
        XCTAssertEqual(geoLayers.count, 1)
        XCTAssertEqual(geoLayers.first?.features, drawn.count + plan.nodes.count, "a LineString per line, a Point per node")

        let gpx = harness.directory.appendingPathComponent("plan.gpx")
        XCTAssertEqual(try harness.umctl(["plan", "export", id, "--format", "gpx", "-o", gpx.path]).status, 0)
        let counts = Dictionary(try ogrinfo(gpx).map { ($0.layer, $0.features) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(counts["routes"], 1)
        XCTAssertEqual(counts["route_points"], plan.nodes.count)
        XCTAssertEqual(counts["tracks"], drawn.count)
        XCTAssertEqual(counts["track_points"], drawn.map(\.points.count).reduce(0, +), "the same simplified lines as plan show")

        let stdout = try harness.umctl(["plan", "export", id, "--format", "geojson"])
        XCTAssertEqual(stdout.stdout, try String(contentsOf: geojson, encoding: .utf8), "standard output holds the same file")
        XCTAssertEqual(try harness.umctl(["plan", "export", id, "--format", "kml"]).status, 2, "an unknown format is refused by umctl")
    }

    func testSimplifyingAtFiveMetresKeepsEveryLinesEndsAndShortensALongWalk() throws {
        let walk = try newPlan(Tampere.keskustori, Tampere.tampereTalo, mode: "walk")
        let transit = try newPlan(Tampere.keskustori, Tampere.hervanta, mode: "transit")
        for id in [walk, transit] {
            let raw = lines(try show(id, tolerance: "0")), simplified = lines(try show(id, tolerance: "5"))
            XCTAssertEqual(raw.count, simplified.count)
            for (a, b) in zip(raw, simplified) {
                XCTAssertEqual(b.points.first, a.points.first, "\(a.mode) starts where it did")
                XCTAssertEqual(b.points.last, a.points.last, "\(a.mode) ends where it did")
                XCTAssertLessThanOrEqual(b.points.count, a.points.count)
            }
        }
        let raw = lines(try show(walk, tolerance: "0"))[0].points, simplified = lines(try show(walk))[0].points
        XCTAssertGreaterThan(raw.count, 10, "the street router's walk has many points")
        XCTAssertLessThan(simplified.count, raw.count, "5 m (the default) drops points of a 1.5 km walk")
        let bad = try harness.umctl(["plan", "show", walk, "--geometry", "--tolerance", "-3"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--tolerance"), bad.stderr)
    }

    func testThePlanPictureHasTheRequestedSizeAndTheLegsColoursAlongTheRoute() throws {
        let id = try newPlan(Tampere.keskustori, Tampere.hervanta, mode: "car")
        let file = harness.directory.appendingPathComponent("plan.png")
        let result = try harness.umctl(["plan", "map", id, "-o", file.path, "--size", "640x480"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let pixels = try PNGPixels(try Data(contentsOf: file))
        XCTAssertEqual(pixels.width, 640)
        XCTAssertEqual(pixels.height, 480)

        // The daemon fits every unsimplified point and node into the picture; so does the test.
        let plan = try show(id, tolerance: "0")
        let route = try XCTUnwrap(lines(plan).first?.points)
        let projection = MapProjection(fitting: route + plan.nodes.map { Coordinate(latitude: $0.lat, longitude: $0.lon) },
                                       width: 640, height: 480)
        var sampled = 0
        for (a, b) in zip(route, route.dropFirst()) {
            let p = projection.pixel(of: a.midpoint(to: b))
            let q = projection.pixel(of: b)
            // Away from the legend, the scale bar, and the labelled ends.
            guard p.y < 450, !(p.x < 140 && p.y < 60), abs(p.x - q.x) + abs(p.y - q.y) > 6,
                  a.distance(to: route[0]) > 400, a.distance(to: route[route.count - 1]) > 400 else { continue }
            XCTAssertTrue(pixels.has(MapStyle.car, near: p.x, p.y), "the car colour at \(p)")
            sampled += 1
        }
        XCTAssertGreaterThan(sampled, 10)

        XCTAssertEqual(try harness.umctl(["plan", "map", id, "-o", harness.directory.appendingPathComponent("plan.jpg").path]).status, 2)
        let tiny = try harness.umctl(["plan", "map", id, "-o", file.path, "--size", "10x10"])
        XCTAssertEqual(tiny.status, 1)
        XCTAssertTrue(tiny.stderr.contains("64 to 4096"), tiny.stderr)
    }

    func testCompareDrawsTheThreeModesRoutesOnOnePicture() throws {
        let file = harness.directory.appendingPathComponent("compare.svg")
        let result = try harness.umctl(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning,
                                        "--map", file.path, "--size", "500x400"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("transit"), result.stdout)
        let svg = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(svg.contains("width=\"500\""))
        // cairo writes each stroke's colour as rgb(r%,g%,b%); every mode's colour is used.
        let used = svg.components(separatedBy: "rgb(").dropFirst().compactMap { text -> [Double]? in
            let parts = text.prefix { $0 != ")" }.split(separator: ",").compactMap { Double($0.dropLast()) }
            return parts.count == 3 ? parts.map { $0 / 100 } : nil
        }
        for color in [MapStyle.walk, MapStyle.transit, MapStyle.car] {
            XCTAssertTrue(used.contains { zip($0, [color.red, color.green, color.blue]).allSatisfy { abs($0 - $1) < 0.005 } },
                          "\(color) is drawn")
        }
    }
}
