import Foundation
import Planner
import SQLite

extension PlaceIndex {
    /// How far reverse geocoding looks for addresses and places, and for streets.
    static let reversePointRadius = 200.0
    static let reverseStreetRadius = 500.0

    /// What is at `coordinate`: the nearest address and place within 200 m (an unnamed place
    /// named as search names it, `described`), and the nearest street (measured to its lines)
    /// within 500 m, each with its distance.
    /// - throws: `StreetsError.invalidQuery` for an invalid coordinate.
    public func reverse(_ coordinate: Coordinate) throws -> ReverseGeocode {
        guard coordinate.isValid else { throw StreetsError.invalidQuery("invalid coordinate \(coordinate.latitude),\(coordinate.longitude)") }
        let around = try placesAround(coordinate, radius: Self.reversePointRadius, kinds: [.address, .poi, .stop])
        // An unnamed place reads as search shows it, "cafe (no name), Hämeenkatu 12", not "Cafe".
        return ReverseGeocode(address: around.first { $0.kind == .address },
                              place: try around.first { $0.kind != .address }.map(described),
                              street: try nearestStreet(to: coordinate))
    }

    /// How much farther an addressable street may be than a footway, path, passage or service
    /// road nearer the point and still name it: on Avenida Paulista the avenue, not the
    /// underground passage beneath it.
    static let preferredStreetSlack = 50.0

    /// Kinds of way that name a point only when no street is about as near.
    static let minorWays: Set<String> = ["highway=footway", "highway=path", "highway=cycleway", "highway=steps",
                                         "highway=corridor", "highway=service", "highway=track", "highway=bridleway",
                                         "highway=platform", "highway=elevator"]

    /// The nearest street to `coordinate` within 500 m, measured to its lines, preferring an
    /// addressable street (one with house numbers, or a road that is no footway, path, passage
    /// or service road) up to `preferredStreetSlack` farther than the nearest way.
    func nearestStreet(to coordinate: Coordinate) throws -> PlaceSearchResult? {
        guard hasSearchTables else {
            return try placesAround(coordinate, radius: Self.reverseStreetRadius, kinds: [.street]).first
        }
        let box = Self.box(around: coordinate, radius: Self.reverseStreetRadius)
        let lines = try locked {
            try database.query("""
                SELECT l.place_id, l.lines, p.category, p.folded FROM street_box b JOIN street_line l ON l.place_id = b.id
                JOIN place p ON p.id = l.place_id
                WHERE b.min_lat <= ? AND b.max_lat >= ? AND b.min_lon <= ? AND b.max_lon >= ?
                """, [.real(box.maxLatitude), .real(box.minLatitude), .real(box.maxLongitude), .real(box.minLongitude)]) {
                (id: $0.int64(0), distance: PointsBlob.decode(lines: $0.blob(1)).map { LineMeasure.distance(from: coordinate, to: $0) }
                    .min() ?? .infinity,
                 minor: Self.minorWays.contains($0.optionalString(2) ?? ""), folded: $0.string(3))
            }
        }
        let addressable = Set(addressStreets)
        func preferred(_ line: (id: Int64, distance: Double, minor: Bool, folded: String)) -> Bool {
            !line.minor || addressable.contains(line.folded)
        }
        guard let nearestWay = lines.min(by: { $0.distance < $1.distance }), nearestWay.distance <= Self.reverseStreetRadius else { return nil }
        let nearest = lines.filter(preferred).min(by: { $0.distance < $1.distance })
            .flatMap { $0.distance <= min(Self.reverseStreetRadius, nearestWay.distance + Self.preferredStreetSlack) ? $0 : nil }
            ?? nearestWay
        let street = try locked {
            try database.query("SELECT \(selectColumns) FROM place p \(addressJoin) WHERE p.id = ?", [.integer(nearest.id)]) {
                self.result(from: $0, near: coordinate)
            }.first
        }
        return street.map { street in
            var street = street
            street.distance = nearest.distance
            return street
        }
    }
}
