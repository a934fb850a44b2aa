import Daemon
import Foundation
import MapRendering
import Planner
import Streets
import Transit

/// `usefulmap-bench maps`: the Tampere street layer's size on disk and read time, and the time
/// to draw a city plan (walk, bus along its GTFS shape, walk, then a car leg across the city)
/// as an 800×600 PNG and SVG on it, as `plan.map` does.
func runMapsSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "maps")
    let data = sharedDirectory().appendingPathComponent("data/tampere")
    let dataDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("usefulmap-bench-maps-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dataDirectory) }

    let result = try RegionImporter(dataDirectory: dataDirectory).importRegion(
        name: "tampere", osm: data.appendingPathComponent("tampere.osm.pbf"),
        additionalSteps: [TransitEngine.importStep(feeds: [data.appendingPathComponent("tampere.zip")])]) { _ in }
    let region = RegionCatalog(dataDirectory: dataDirectory).directory(of: "tampere")
    let layerBytes = try FileManager.default.attributesOfItem(atPath: region.appendingPathComponent(StreetLayer.fileName).path)[.size] as? NSNumber
    report.add("street layer on disk (\(StreetLayer.fileName))", (layerBytes?.doubleValue ?? 0) / 1024, unit: "KiB")
    let (streets, readSeconds) = try time { try StreetLayer.read(regionDirectory: region) ?? [] }
    report.add("street layer read", readSeconds * 1000, unit: "ms")
    report.notes["street layer"] = "\(streets.count) lines, \(streets.map(\.points.count).reduce(0, +)) points"

    // Keskustori → Hervanta by bus, then on to Lielahti by car.
    let keskustori = Coordinate(latitude: 61.4978, longitude: 23.7610), hervanta = Coordinate(latitude: 61.4502, longitude: 23.8510)
    let lielahti = Coordinate(latitude: 61.5155, longitude: 23.6720)
    let transit = try TransitRouter(regionDirectory: region)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = transit.timeZone
    guard let morning = calendar.date(from: DateComponents(year: 2022, month: 1, day: 12, hour: 8, minute: 0)) else {
        throw CocoaError(.coderValueNotFound)
    }
    let bus = try transit.leg(from: keskustori, to: hervanta, timing: .departAt(morning), pace: .normal).best
    let streetRouter = try StreetRouter(regions: [result.manifest], dataDirectory: dataDirectory, workers: 1)
    defer { streetRouter.shutdown() }
    let car = try await streetRouter.leg(from: hervanta, to: lielahti, mode: .car)
    let plan = try RoutePlan(restoring: [("Keskustori", keskustori), ("Hervanta", hervanta), ("Lielahti", lielahti)].map {
        PlanNode(place: Place(name: $0.0, coordinate: $0.1))
    }, modes: [.transit, .car], legs: [bus, car], timePreference: .departAt(morning), pace: .normal,
       locks: [:], pinned: nil, pending: [:])
    let shapes = try RideShapes(regionDirectory: region)
    let geometry = PlanGeometry(plan: plan, times: plan.schedule(), toleranceMetres: 0) { shapes.shape(of: $0) }
    report.notes["plan"] = "\(geometry.lines.count) lines, \(geometry.lines.map(\.points.count).reduce(0, +)) points"
    let scene = MapScene.plan(geometry, timeZone: transit.timeZone)

    for format in MapImageFormat.allCases {
        _ = try MapRenderer.render(scene, streets: streets, width: 800, height: 600, format: format)  // warm up
        var seconds: [Double] = []
        var bytes = 0
        for _ in 0..<20 {
            let (image, elapsed) = try time { try MapRenderer.render(scene, streets: streets, width: 800, height: 600, format: format) }
            seconds.append(elapsed)
            bytes = image.count
        }
        report.addLatencies("render city plan 800x600 \(format.rawValue)", seconds)
        report.add("picture size \(format.rawValue)", Double(bytes) / 1024, unit: "KiB")
    }
    return report
}

