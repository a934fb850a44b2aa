import Foundation
import Planner
import SQLite

extension PlaceIndex {
    /// How far reverse geocoding looks for addresses and places, and for streets.
    static let reversePointRadius = 200.0
    static let reverseStreetRadius = 500.0

    /// What is at `coordinate`: the nearest address and place within 200 m, and the nearest
    /// street (measured to its lines) within 500 m, each with its distance.
    /// - throws: `StreetsError.invalidQuery` for an invalid coordinate.
    public func reverse(_ coordinate: Coordinate) throws -> ReverseGeocode {
        guard coordinate.isValid else { throw StreetsError.invalidQuery("invalid coordinate \(coordinate.latitude),\(coordinate.longitude)") }
        let around = try placesAround(coordinate, radius: Self.reversePointRadius, kinds: [.address, .poi, .stop])
        return ReverseGeocode(address: around.first { $0.kind == .address },
                              place: around.first { $0.kind != .address },
                              street: try nearestStreet(to: coordinate))
    }

    func nearestStreet(to coordinate: Coordinate) throws -> PlaceSearchResult? {
        guard hasSearchTables else {
            return try placesAround(coordinate, radius: Self.reverseStreetRadius, kinds: [.street]).first
        }
        let box = Self.box(around: coordinate, radius: Self.reverseStreetRadius)
        let lines = try locked {
            try database.query("""
                SELECT l.place_id, l.lines FROM street_box b JOIN street_line l ON l.place_id = b.id
                WHERE b.min_lat <= ? AND b.max_lat >= ? AND b.min_lon <= ? AND b.max_lon >= ?
                """, [.real(box.maxLatitude), .real(box.minLatitude), .real(box.maxLongitude), .real(box.minLongitude)]) {
                (id: $0.int64(0), distance: PointsBlob.decode(lines: $0.blob(1)).map { LineMeasure.distance(from: coordinate, to: $0) }
                    .min() ?? .infinity)
            }
        }
        guard let nearest = lines.min(by: { $0.distance < $1.distance }), nearest.distance <= Self.reverseStreetRadius else { return nil }
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
