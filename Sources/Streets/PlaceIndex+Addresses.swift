import Foundation
import Planner
import SQLite

extension PlaceIndex {
    /// The address asked for: that number on that street (every unit of it), else a number
    /// interpolated on an `addr:interpolation` way, else the nearest number on the same street,
    /// marked approximate. A street with no numbers at all answers with the street itself,
    /// marked approximate. Never another street: a misspelt street name is read as the
    /// closest street within the typos allowed (`EditDistance.allowed`).
    /// A postcode or city the region does not have rules it out: nothing is answered.
    func addresses(_ query: AddressQuery, near: Coordinate?) throws -> [PlaceSearchResult] {
        guard admits(query) else { return [] }
        guard let street = addressStreets.contains(query.street) ? query.street : closestAddressStreet(to: query.street) else {
            return try streetWithoutNumbers(query, near: near)
        }
        let match: PlaceMatch = street == query.street ? .exact : .fuzzy
        struct Row { var result: PlaceSearchResult; var number: Int; var suffix: String; var housenumber: String; var street: String }
        let rows = try locked {
            try database.query("""
                SELECT \(selectColumns), a.number, a.suffix, a.postcode, a.city_folded, a.housenumber, a.street
                FROM address a JOIN place p ON p.id = a.place_id WHERE a.street_folded = ?
                """, [.text(street)]) { row -> Row? in
                if let postcode = query.postcode, let stored = row.optionalString(11),
                   AddressQuery.normalizedPostcode(stored) != postcode { return nil }
                if let city = query.city, let stored = row.optionalString(12), !stored.hasPrefix(city) { return nil }
                var result = self.result(from: row, near: near, match: match)
                result.typoRank = match == .fuzzy ? 200 : 0
                return Row(result: result, number: row.int(9), suffix: row.string(10), housenumber: row.string(13), street: row.string(14))
            }.compactMap { $0 }
        }
        let exact = rows.filter { $0.number == query.number && (query.suffix.isEmpty || $0.suffix == query.suffix) }
        if !exact.isEmpty {
            return exact.sorted { ($0.suffix, $0.result.name) < ($1.suffix, $1.result.name) }.map(\.result)
        }
        if let interpolated = try interpolatedAddress(query, street: street, near: near, match: match) { return [interpolated] }
        let wanted = query.number
        guard let nearest = rows.min(by: { a, b in
            let keyA = (abs(a.number - wanted), (a.number - wanted) % 2 == 0 ? 0 : 1, a.suffix)
            let keyB = (abs(b.number - wanted), (b.number - wanted) % 2 == 0 ? 0 : 1, b.suffix)
            return keyA < keyB
        }) else { return [] }
        var result = nearest.result
        let asked = "\(nearest.street) \(wanted)\(query.suffix.isEmpty ? "" : " \(query.suffix.uppercased())")"
        result.approximate = "no \(asked) in the map data; the nearest number on \(nearest.street) is \(nearest.housenumber)"
        return [result]
    }

    /// A postcode typed alone, or with its city ("01302-000", "01302-000 São Paulo", "33100
    /// Tampere"): the middle of the region's addresses with that postcode, named by it, as the
    /// addresses write it ("01302-000", address "01302-000 São Paulo"). Nil when the words do not
    /// start with one of the region's postcodes, or go on with something that is not its city.
    func postcodeArea(_ words: [String], near: Coordinate?) throws -> PlaceSearchResult? {
        guard !knownPostcodes.isEmpty else { return nil }
        for length in stride(from: min(3, words.count), through: 1, by: -1) {
            let code = words[..<length].joined()
            let rest = words[length...].joined(separator: " ")
            guard knownPostcodes.contains(code),
                  rest.isEmpty || knownCities.contains(where: { $0.hasPrefix(rest) }) else { continue }
            let rows = try locked {
                try database.query("""
                    SELECT p.latitude, p.longitude, a.postcode, a.full FROM address a JOIN place p ON p.id = a.place_id
                    WHERE a.postcode IS NOT NULL
                    """) { row in
                    (point: Coordinate(latitude: row.double(0), longitude: row.double(1)), postcode: row.string(2), full: row.string(3))
                }
            }.filter { AddressQuery.normalizedPostcode($0.postcode) == code }
            guard let first = rows.first else { return nil }
            let centre = Coordinate(latitude: rows.map(\.point.latitude).reduce(0, +) / Double(rows.count),
                                    longitude: rows.map(\.point.longitude).reduce(0, +) / Double(rows.count))
            let area = first.full.components(separatedBy: ", ").last ?? first.postcode
            return PlaceSearchResult(name: first.postcode, coordinate: centre, kind: .address,
                                     distance: near.map { centre.distance(to: $0) }, address: area, match: .exact)
        }
        return nil
    }

    /// The street whose addresses are nearest in spelling to `street`, within the typos allowed.
    func closestAddressStreet(to street: String) -> String? {
        let allowed = EditDistance.allowed(forLength: street.count)
        guard allowed > 0 else { return nil }
        let letters = Array(street)
        return addressStreets.compactMap { candidate in
            EditDistance.between(letters, Array(candidate), atMost: allowed).map { (candidate, $0) }
        }.min { ($0.1, $0.0.count, $0.0) < ($1.1, $1.0.count, $1.0) }?.0
    }

    /// A number on an `addr:interpolation` stretch of the street: placed along its line.
    func interpolatedAddress(_ query: AddressQuery, street: String, near: Coordinate?, match: PlaceMatch) throws -> PlaceSearchResult? {
        let stretches = try locked {
            try database.query("""
                SELECT street, first, last, step, postcode, city, points FROM interpolation
                WHERE street_folded = ? AND first <= ? AND last >= ?
                """, [.text(street), .integer(Int64(query.number)), .integer(Int64(query.number))]) { row in
                (street: row.string(0), first: row.int(1), last: row.int(2), step: row.int(3),
                 postcode: row.optionalString(4), city: row.optionalString(5), points: PointsBlob.decode(row.blob(6)))
            }
        }
        for stretch in stretches where (query.number - stretch.first) % stretch.step == 0 && stretch.last > stretch.first {
            if let postcode = query.postcode, let stored = stretch.postcode, AddressQuery.normalizedPostcode(stored) != postcode { continue }
            let fraction = Double(query.number - stretch.first) / Double(stretch.last - stretch.first)
            guard let point = LineMeasure.point(atFraction: fraction, of: stretch.points) else { continue }
            let name = "\(stretch.street) \(query.number)"
            let area = [stretch.postcode, stretch.city].compactMap { $0 }.joined(separator: " ")
            var result = PlaceSearchResult(name: name, coordinate: point, kind: .address,
                                           distance: near.map { point.distance(to: $0) },
                                           address: area.isEmpty ? name : "\(name), \(area)", match: match)
            result.approximate = "interpolated between \(stretch.street) \(stretch.first) and \(stretch.last)"
            return result
        }
        return nil
    }

    /// A street that has no house numbers in the map data, named exactly: the street itself, approximate.
    func streetWithoutNumbers(_ query: AddressQuery, near: Coordinate?) throws -> [PlaceSearchResult] {
        let streets = try locked {
            try database.query("SELECT \(selectColumns) FROM place p \(addressJoin) WHERE p.kind = 'street' AND p.folded = ?",
                               [.text(query.street)]) { self.result(from: $0, near: near) }
        }
        return streets.map { street in
            var street = street
            street.approximate = "no house numbers on \(street.name) in the map data; showing the street"
            return street
        }
    }
}
