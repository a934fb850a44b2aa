import Foundation
import Planner
import TestSupport
import XCTest

/// What GDAL's OSM driver (`ogr2ogr`, Debian `gdal-bin`) reads from an OSM file: an independent
/// reading of the same data, to check our extraction against.
struct OSMTruth {
    struct Feature {
        var coordinate: Coordinate
        var name: String?
        var tags: [String: String]
    }

    /// Points and areas (their centroid) whose tags match `likePattern` (SQL LIKE on the tag text).
    static func features(in file: URL, tagsLike likePattern: String) throws -> [Feature] {
        var features: [Feature] = []
        for (layer, geometry) in [("points", "geometry"), ("multipolygons", "ST_Centroid(geometry)")] {
            let temporary = try TemporaryDirectory("osm-truth")
            defer { temporary.remove() }
            let output = temporary.url.appendingPathComponent("\(layer).geojson")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ogr2ogr")
            process.arguments = ["-f", "GeoJSON", output.path, file.path, "-dialect", "SQLite", "-sql",
                                 "SELECT \(geometry) AS geometry, name, other_tags FROM \(layer) WHERE other_tags LIKE '\(likePattern)'"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "ogr2ogr on \(layer)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
            for feature in json?["features"] as? [[String: Any]] ?? [] {
                guard let geometry = feature["geometry"] as? [String: Any], let point = geometry["coordinates"] as? [Double],
                      point.count == 2, let properties = feature["properties"] as? [String: Any] else { continue }
                features.append(Feature(coordinate: Coordinate(latitude: point[1], longitude: point[0]),
                                        name: properties["name"] as? String,
                                        tags: parseTags(properties["other_tags"] as? String ?? "")))
            }
        }
        return features
    }

    /// `"key"=>"value","key2"=>"value2"` (the driver's hstore text).
    static func parseTags(_ text: String) -> [String: String] {
        var tags: [String: String] = [:]
        let pattern = try? NSRegularExpression(pattern: #""((?:[^"\\]|\\.)*)"=>"((?:[^"\\]|\\.)*)""#)
        let range = NSRange(text.startIndex..., in: text)
        for match in pattern?.matches(in: text, range: range) ?? [] {
            guard let key = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text) else { continue }
            tags[String(text[key])] = String(text[value]).replacingOccurrences(of: #"\""#, with: "\"")
        }
        return tags
    }
}
