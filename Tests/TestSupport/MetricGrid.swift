import Foundation

/// Points of a written region placed in metres east and north of its centre, rounded to 1e-7°
/// as an OSM file keeps them, so a test can say "a stop 140 m east of the origin".
public struct MetricGrid: Sendable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public func point(east: Double, north: Double) -> (Double, Double) {
        (((latitude + north / 111_195) * 1e7).rounded() / 1e7,
         ((longitude + east / (111_195 * cos(latitude * .pi / 180))) * 1e7).rounded() / 1e7)
    }

    /// "LAT,LON" as umctl reads a place.
    public static func text(_ point: (Double, Double)) -> String { String(format: "%.7f,%.7f", point.0, point.1) }
}

extension DaemonHarness {
    /// Imports region `name` from written files beside the regions the harness holds.
    public func importWrittenRegion(_ name: String, osm: URL, gtfs: URL) throws {
        let result = try umctl(["region", "import", name, "--osm", osm.path, "--gtfs", gtfs.path])
        guard result.status == 0 else { throw HarnessError("import of \(name): \(result.stderr)") }
    }
}
