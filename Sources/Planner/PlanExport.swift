import Foundation

/// A plan's geometry as files other programs open (QGIS, GPS devices, web maps). The text
/// holds no control characters (names are escaped), so a client can print or write it as it is.
///
/// ```swift
/// let text = PlanExport.geoJSON(geometry, title: "Home → Work", timeZone: zone)
/// ```
public enum PlanExport {
    public enum Format: String, Sendable, CaseIterable {
        case geojson, gpx

        public var mediaType: String {
            switch self {
            case .geojson: "application/geo+json"
            case .gpx: "application/gpx+xml"
            }
        }
    }

    public static func text(_ geometry: PlanGeometry, format: Format, title: String, timeZone: TimeZone) -> String {
        switch format {
        case .geojson: geoJSON(geometry, title: title, timeZone: timeZone)
        case .gpx: gpx(geometry, title: title)
        }
    }

    // MARK: - GeoJSON (RFC 7946)

    /// A FeatureCollection: one LineString per line (properties mode, line, departure, arrival,
    /// duration_s, distance_m, segment) then one Point per node (name, time). Positions are
    /// longitude, latitude (RFC 7946 §3.1.1) with 6 decimals (about 10 cm); times are ISO 8601
    /// in `timeZone`.
    public static func geoJSON(_ geometry: PlanGeometry, title: String, timeZone: TimeZone) -> String {
        func time(_ date: Date?) -> String { date.map { json(isoTime($0, timeZone: timeZone)) } ?? "null" }
        func number(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "null" }
        var features: [String] = []
        for line in geometry.lines {
            let positions = line.points.map { "[\(degrees($0.longitude)),\(degrees($0.latitude))]" }.joined(separator: ",")
            let properties = [
                "\"mode\":\(json(line.mode.rawValue))",
                "\"line\":\(line.lineName.map(json) ?? "null")",
                "\"departure\":\(time(line.departure))",
                "\"arrival\":\(time(line.arrival))",
                "\"duration_s\":\(number(line.duration))",
                "\"distance_m\":\(number(line.distance))",
                "\"segment\":\(line.segment + 1)",
            ].joined(separator: ",")
            features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(positions)]},\"properties\":{\(properties)}}")
        }
        for node in geometry.nodes {
            let position = "[\(degrees(node.coordinate.longitude)),\(degrees(node.coordinate.latitude))]"
            features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(position)},\"properties\":{\"name\":\(json(node.name)),\"time\":\(time(node.time))}}")
        }
        return "{\"type\":\"FeatureCollection\",\"name\":\(json(title)),\"features\":[" + features.joined(separator: ",") + "]}"
    }

    // MARK: - GPX 1.1

    /// A route through the nodes (each a route point with its name and time) and a track per
    /// line (named after its mode and line). GPX times are UTC (`xsd:dateTime` with `Z`).
    public static func gpx(_ geometry: PlanGeometry, title: String) -> String {
        func point(_ tag: String, _ c: Coordinate, name: String? = nil, time: Date? = nil) -> String {
            var inner = ""
            if let time { inner += "<time>\(isoTime(time, timeZone: TimeZone(identifier: "UTC") ?? .current))</time>" }
            if let name { inner += "<name>\(xml(name))</name>" }
            return "<\(tag) lat=\"\(degrees(c.latitude))\" lon=\"\(degrees(c.longitude))\">\(inner)</\(tag)>"
        }
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<gpx version=\"1.1\" creator=\"Useful Map\" xmlns=\"http://www.topografix.com/GPX/1/1\">",
            "<metadata><name>\(xml(title))</name></metadata>",
            "<rte><name>\(xml(title))</name>",
        ]
        lines += geometry.nodes.map { point("rtept", $0.coordinate, name: $0.name, time: $0.time) }
        lines.append("</rte>")
        for line in geometry.lines {
            let name = [line.mode.rawValue, line.lineName].compactMap { $0 }.joined(separator: " ")
            lines.append("<trk><name>\(xml(name))</name><type>\(line.mode.rawValue)</type><trkseg>")
            lines += line.points.map { point("trkpt", $0) }
            lines.append("</trkseg></trk>")
        }
        lines.append("</gpx>")
        return lines.joined()
    }

    // MARK: - Helpers

    static func degrees(_ value: Double) -> String { String(format: "%.6f", value) }

    static func isoTime(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// A JSON string literal (RFC 8259 §7).
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case _ where scalar.value < 0x20: continue  // a name never needs a line break or a control
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
