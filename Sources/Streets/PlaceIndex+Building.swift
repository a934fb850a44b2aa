import Foundation
import Planner
import SQLite

extension PlaceIndex {
    /// The tables of `places.sqlite` (format 2). `place` holds every result (street, poi,
    /// address, stop); the others index it.
    static let schema = """
        CREATE TABLE place(
            id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, folded TEXT NOT NULL,
            category TEXT, latitude REAL NOT NULL, longitude REAL NOT NULL,
            stop_id TEXT UNIQUE, modes TEXT, osm TEXT);
        CREATE INDEX place_by_category ON place(category) WHERE kind = 'poi';
        CREATE VIRTUAL TABLE place_text USING fts5(
            name, content='place', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2', prefix='2 3 4');
        CREATE VIRTUAL TABLE place_box USING rtree(id, min_lat, max_lat, min_lon, max_lon);
        CREATE TABLE address(
            place_id INTEGER PRIMARY KEY, street TEXT NOT NULL, street_folded TEXT NOT NULL,
            housenumber TEXT NOT NULL, number INTEGER NOT NULL, suffix TEXT NOT NULL,
            unit TEXT, postcode TEXT, city_folded TEXT, full TEXT NOT NULL);
        CREATE INDEX address_by_street ON address(street_folded, number);
        CREATE TABLE interpolation(
            id INTEGER PRIMARY KEY, street TEXT NOT NULL, street_folded TEXT NOT NULL,
            first INTEGER NOT NULL, last INTEGER NOT NULL, step INTEGER NOT NULL,
            postcode TEXT, city TEXT, points BLOB NOT NULL);
        CREATE INDEX interpolation_by_street ON interpolation(street_folded);
        CREATE TABLE street_line(place_id INTEGER PRIMARY KEY, lines BLOB NOT NULL);
        CREATE VIRTUAL TABLE street_box USING rtree(id, min_lat, max_lat, min_lon, max_lon);
        CREATE VIRTUAL TABLE name_trigram USING fts5(
            folded, content='place', content_rowid='id', tokenize='trigram', detail='none');
        """

    /// Creates `places.sqlite` in `directory` from what was read from OSM.
    static func build(in directory: URL, places: [ExtractedPlace], addresses: [ExtractedAddress] = [],
                      interpolations: [ExtractedInterpolation] = []) throws {
        let file = directory.appendingPathComponent(fileName)
        try? FileManager.default.removeItem(at: file)
        try wrap {
            let database = try Database(path: file.path, mode: .readWriteCreate)
            try database.execute(schema)
            try database.transaction {
                var inserter = try Inserter(database)
                for place in places {
                    let id = try inserter.insert(name: place.name, kind: place.kind, category: place.category,
                                                 coordinate: place.coordinate, stopID: nil, modes: nil, osm: place.osmReference)
                    try inserter.insertLines(place.lines.filter { $0.count >= 2 }, of: id)
                }
                var seen = Set<String>()
                for address in addresses {
                    let key = [fold(address.street), fold(address.housenumber), fold(address.unit ?? "")].joined(separator: "\u{1}")
                    guard seen.insert(key).inserted else { continue }
                    try inserter.insert(address)
                }
                for interpolation in interpolations { try inserter.insert(interpolation) }
            }
            try database.execute("INSERT INTO place_text(place_text) VALUES ('optimize')")
            try database.execute("INSERT INTO name_trigram(name_trigram) VALUES ('optimize')")
            try database.execute("PRAGMA user_version = \(formatVersion)")
            try database.execute("VACUUM")
            database.close()
        }
    }

    /// Removes every transit stop from the index in `regionDirectory` (a staging copy whose
    /// timetable is rebuilt alone: the new feed's stops are then added, and a stop the new feed
    /// dropped is not left behind).
    /// - throws: `.placeIndexMissing`, `.placeIndexFailed`.
    public static func removeStops(fromRegionDirectory regionDirectory: URL) throws {
        let file = regionDirectory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { throw StreetsError.placeIndexMissing(file.path) }
        try wrap {
            let database = try Database(path: file.path, mode: .readWrite)
            try database.transaction {
                let stops = try database.prepare("SELECT id, name, folded FROM place WHERE stop_id IS NOT NULL")
                let forget = try database.prepare("INSERT INTO place_text(place_text, rowid, name) VALUES ('delete', ?, ?)")
                let forgetTrigrams = try database.prepare("INSERT INTO name_trigram(name_trigram, rowid, folded) VALUES ('delete', ?, ?)")
                let removeBox = try database.prepare("DELETE FROM place_box WHERE id = ?")
                let found = try stops.query([]) { ($0.int64(0), $0.string(1), $0.string(2)) }
                for (id, name, folded) in found {
                    try forget.run([.integer(id), .text(name)])
                    try forgetTrigrams.run([.integer(id), .text(folded)])  // stops are always in it
                    try removeBox.run([.integer(id)])
                }
                try database.execute("DELETE FROM place WHERE stop_id IS NOT NULL")
            }
            database.close()
        }
    }

    /// Adds transit stops to the index in `regionDirectory` (a staging directory during import);
    /// a stop whose id is already indexed for its feed is replaced.
    /// - throws: `StreetsError.invalidStop` (nothing is written), `.placeIndexMissing`, `.placeIndexFailed`.
    public static func addStops(_ stops: [IndexedStop], toRegionDirectory regionDirectory: URL) throws {
        for stop in stops {
            guard !stop.id.isEmpty else { throw StreetsError.invalidStop("a stop named \"\(stop.name)\" has an empty id") }
            guard !stop.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw StreetsError.invalidStop("stop \(stop.id) has no name") }
            guard stop.coordinate.isValid else { throw StreetsError.invalidStop("stop \(stop.id) has an invalid coordinate") }
        }
        let file = regionDirectory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { throw StreetsError.placeIndexMissing(file.path) }
        try wrap {
            let database = try Database(path: file.path, mode: .readWrite)
            try database.transaction {
                let old = try database.prepare("SELECT id, name, folded FROM place WHERE stop_id = ?")
                let forget = try database.prepare("INSERT INTO place_text(place_text, rowid, name) VALUES ('delete', ?, ?)")
                let forgetTrigrams = try database.prepare("INSERT INTO name_trigram(name_trigram, rowid, folded) VALUES ('delete', ?, ?)")
                let remove = try database.prepare("DELETE FROM place WHERE id = ?")
                let removeBox = try database.prepare("DELETE FROM place_box WHERE id = ?")
                for stop in stops {
                    let existing = try old.query([.text(stop.key)]) { ($0.int64(0), $0.string(1), $0.string(2)) }
                    for (id, name, folded) in existing {
                        try forget.run([.integer(id), .text(name)])
                        try forgetTrigrams.run([.integer(id), .text(folded)])  // stops are always in it
                        try remove.run([.integer(id)])
                        try removeBox.run([.integer(id)])
                    }
                }
                var inserter = try Inserter(database)
                for stop in stops {
                    let modes = Array(Set(stop.modes)).sorted().joined(separator: ",")
                    try inserter.insert(name: stop.name, kind: .stop, category: nil, coordinate: stop.coordinate,
                                        stopID: stop.key, modes: modes, osm: nil)
                }
            }
            database.close()
        }
    }

    /// Writes places into the tables that index them.
    private struct Inserter {
        /// Names already in the trigram index: a name is there once (a typo finds the name; the
        /// places of that name are then looked up by it). Stops are always added, so that
        /// replacing one can remove its entry.
        var trigramNames = Set<String>()
        let database: Database
        let place: Statement
        let text: Statement
        let box: Statement
        let trigram: Statement
        let address: Statement
        let interpolation: Statement
        let line: Statement
        let lineBox: Statement

        init(_ database: Database) throws {
            self.database = database
            place = try database.prepare("""
                INSERT INTO place(kind, name, folded, category, latitude, longitude, stop_id, modes, osm)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            text = try database.prepare("INSERT INTO place_text(rowid, name) VALUES (?, ?)")
            box = try database.prepare("INSERT INTO place_box(id, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)")
            trigram = try database.prepare("INSERT INTO name_trigram(rowid, folded) VALUES (?, ?)")
            address = try database.prepare("""
                INSERT INTO address(place_id, street, street_folded, housenumber, number, suffix, unit, postcode, city_folded, full)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            interpolation = try database.prepare("""
                INSERT INTO interpolation(street, street_folded, first, last, step, postcode, city, points)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            line = try database.prepare("INSERT INTO street_line(place_id, lines) VALUES (?, ?)")
            lineBox = try database.prepare("INSERT INTO street_box(id, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)")
        }

        /// - returns: the place's row id.
        @discardableResult
        mutating func insert(name placeName: String, kind: PlaceSearchKind, category: String?, coordinate: Coordinate,
                    stopID: String?, modes: String?, osm: String?) throws -> Int64 {
            let folded = PlaceIndex.fold(placeName)
            try place.run([.text(kind.rawValue), .text(placeName), .text(folded), .optional(category),
                           .real(coordinate.latitude), .real(coordinate.longitude), .optional(stopID), .optional(modes), .optional(osm)])
            let id = database.lastInsertRowID
            try text.run([.integer(id), .text(placeName)])
            try box.run([.integer(id), .real(coordinate.latitude), .real(coordinate.latitude),
                         .real(coordinate.longitude), .real(coordinate.longitude)])
            // Addresses are found by their parts, not by typo-tolerant names.
            if kind == .stop || (kind != .address && trigramNames.insert(folded).inserted) {
                try trigram.run([.integer(id), .text(folded)])
            }
            return id
        }

        mutating func insert(_ extracted: ExtractedAddress) throws {
            guard let parsed = AddressQuery.parseStored(extracted.housenumber) else { return }
            let label = [extracted.street, extracted.housenumber, extracted.unit].compactMap { $0 }.joined(separator: " ")
            let id = try insert(name: label, kind: .address, category: nil, coordinate: extracted.coordinate,
                                stopID: nil, modes: nil, osm: extracted.osmReference)
            let area = [extracted.postcode, extracted.city].compactMap { $0 }.joined(separator: " ")
            try address.run([.integer(id), .text(extracted.street), .text(PlaceIndex.fold(extracted.street)),
                             .text(extracted.housenumber), .integer(Int64(parsed.number)), .text(parsed.suffix),
                             .optional(extracted.unit), .optional(extracted.postcode),
                             .optional(extracted.city.map(PlaceIndex.fold)), .text(area.isEmpty ? label : "\(label), \(area)")])
        }

        func insert(_ extracted: ExtractedInterpolation) throws {
            try interpolation.run([.text(extracted.street), .text(PlaceIndex.fold(extracted.street)),
                                   .integer(Int64(min(extracted.first, extracted.last))),
                                   .integer(Int64(max(extracted.first, extracted.last))), .integer(Int64(extracted.step)),
                                   .optional(extracted.postcode), .optional(extracted.city),
                                   .blob(PointsBlob.encode(extracted.first <= extracted.last ? extracted.points : extracted.points.reversed()))])
        }

        /// A street's lines: one row and one box for the street.
        func insertLines(_ lines: [[Coordinate]], of placeID: Int64) throws {
            guard !lines.isEmpty else { return }
            try line.run([.integer(placeID), .blob(PointsBlob.encode(lines: lines))])
            let points = lines.flatMap { $0 }
            let latitudes = points.map(\.latitude), longitudes = points.map(\.longitude)
            try lineBox.run([.integer(placeID), .real(latitudes.min() ?? 0), .real(latitudes.max() ?? 0),
                             .real(longitudes.min() ?? 0), .real(longitudes.max() ?? 0)])
        }
    }
}

/// A line's points as little-endian Float32 latitude/longitude pairs (about 1 m precision at
/// these latitudes, half the size of doubles); several lines as each line's point count
/// (UInt32) followed by its points.
enum PointsBlob {
    static func encode(lines: [[Coordinate]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in lines {
            withUnsafeBytes(of: UInt32(line.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes += encode(line)
        }
        return bytes
    }

    static func decode(lines bytes: [UInt8]) -> [[Coordinate]] {
        var lines: [[Coordinate]] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            var count = 0
            for shift in 0..<4 { count |= Int(bytes[offset + shift]) << (8 * shift) }
            offset += 4
            let end = min(bytes.count, offset + count * 8)
            lines.append(decode(Array(bytes[offset..<end])))
            offset = end
        }
        return lines
    }

    static func encode(_ points: [Coordinate]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(points.count * 8)
        for point in points {
            for value in [Float(point.latitude), Float(point.longitude)] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> [Coordinate] {
        var points: [Coordinate] = []
        points.reserveCapacity(bytes.count / 8)
        var offset = 0
        func float() -> Double {
            var bits: UInt32 = 0
            for shift in 0..<4 { bits |= UInt32(bytes[offset + shift]) << (8 * shift) }
            offset += 4
            return Double(Float(bitPattern: bits))
        }
        while offset + 8 <= bytes.count {
            let latitude = float()
            points.append(Coordinate(latitude: latitude, longitude: float()))
        }
        return points
    }
}
