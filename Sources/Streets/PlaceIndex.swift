import Foundation
import Planner
import SQLite

/// Text and proximity search over a region's named places: `places.sqlite` in the region
/// directory, an FTS5 table (diacritics removed, prefix indexes) plus an R*Tree of coordinates.
///
/// ```swift
/// let index = try PlaceIndex(regionDirectory: catalog.directory(of: "tampere"))
/// let hits = try index.search("hameenkatu", near: nil, kinds: [.street], limit: 5)
/// let stops = try index.nearbyStops(around: keskustori, radius: 400, limit: 10)
/// ```
///
/// The index holds one read-only connection, used under a lock. After a re-import, open a new
/// `PlaceIndex`: this one keeps answering from the version it opened.
public final class PlaceIndex: @unchecked Sendable {
    static let fileName = "places.sqlite"
    /// Text matches considered before ranking by match quality and distance.
    static let candidateLimit = 2000

    private let database: Database
    private let lock = NSLock()

    /// - throws: `StreetsError.placeIndexMissing` when the region has no index, `.placeIndexFailed` when it cannot be read.
    public init(regionDirectory: URL) throws {
        let file = regionDirectory.appendingPathComponent(PlaceIndex.fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { throw StreetsError.placeIndexMissing(file.path) }
        database = try PlaceIndex.wrap { try Database(path: file.path, mode: .readOnly) }
    }

    // MARK: - Querying

    /// Places whose name matches every word of `text` as a prefix, case- and diacritics-insensitively.
    ///
    /// Ranked by match quality (whole name, then name prefix, then word prefixes), then by
    /// distance to `near` when given, then by shorter name.
    /// - throws: `StreetsError.invalidQuery` for text without letters or digits or a limit below 1.
    public func search(_ text: String, near: Coordinate? = nil, kinds: Set<PlaceSearchKind>? = nil,
                       limit: Int = 10) throws -> [PlaceSearchResult] {
        guard limit >= 1 else { throw StreetsError.invalidQuery("limit must be at least 1, got \(limit)") }
        let folded = PlaceIndex.fold(text)
        let words = PlaceIndex.words(folded)
        guard !words.isEmpty else { throw StreetsError.invalidQuery("search text \"\(text)\" has no letters or digits") }
        if let kinds, kinds.isEmpty { return [] }
        let match = words.map { "\"\($0)\"*" }.joined(separator: " ")
        var sql = """
            SELECT p.name, p.kind, p.category, p.latitude, p.longitude, p.stop_id, p.modes, p.folded
            FROM place_text JOIN place p ON p.id = place_text.rowid
            WHERE place_text MATCH ?
            """
        var bindings: [SQLiteValue] = [.text(match)]
        if let kinds {
            sql += " AND p.kind IN (\(kinds.map { _ in "?" }.joined(separator: ",")))"
            bindings += kinds.sorted { $0.rawValue < $1.rawValue }.map { .text($0.rawValue) }
        }
        sql += " ORDER BY rank LIMIT \(PlaceIndex.candidateLimit)"
        let candidates: [(result: PlaceSearchResult, folded: String)] = try locked {
            try database.query(sql, bindings) { row in
                (PlaceIndex.result(from: row, near: near), row.string(7))
            }
        }
        let query = words.joined(separator: " ")
        func tier(_ name: String) -> Int {
            let nameWords = PlaceIndex.words(name).joined(separator: " ")
            if nameWords == query { return 0 }
            if nameWords.hasPrefix(query) { return 1 }
            return 2
        }
        let ranked = candidates.map { (tier: tier($0.folded), result: $0.result) }.sorted { a, b in
            if a.tier != b.tier { return a.tier < b.tier }
            if let da = a.result.distance, let db = b.result.distance, da != db { return da < db }
            if a.result.name.count != b.result.name.count { return a.result.name.count < b.result.name.count }
            return a.result.name < b.result.name
        }
        return ranked.prefix(limit).map(\.result)
    }

    /// Transit stops within `radius` metres of `around`, nearest first, at most `limit`.
    /// - throws: `StreetsError.invalidQuery` for a negative or non-finite radius, a limit below 1 or an invalid coordinate.
    public func nearbyStops(around: Coordinate, radius: Double, limit: Int) throws -> [PlaceSearchResult] {
        guard around.isValid else { throw StreetsError.invalidQuery("invalid coordinate \(around.latitude),\(around.longitude)") }
        guard radius.isFinite, radius >= 0 else { throw StreetsError.invalidQuery("radius must be a non-negative number of metres, got \(radius)") }
        guard limit >= 1 else { throw StreetsError.invalidQuery("limit must be at least 1, got \(limit)") }
        let latSpan = radius / 111_195 + 1e-6
        let lonSpan = radius / max(1, 111_195 * cos(around.latitude * .pi / 180)) + 1e-6
        let sql = """
            SELECT p.name, p.kind, p.category, p.latitude, p.longitude, p.stop_id, p.modes, p.folded
            FROM place_box b JOIN place p ON p.id = b.id
            WHERE b.min_lat <= ? AND b.max_lat >= ? AND b.min_lon <= ? AND b.max_lon >= ? AND p.kind = 'stop'
            """
        let bindings: [SQLiteValue] = [.real(around.latitude + latSpan), .real(around.latitude - latSpan),
                                       .real(around.longitude + lonSpan), .real(around.longitude - lonSpan)]
        let inBox = try locked { try database.query(sql, bindings) { PlaceIndex.result(from: $0, near: around) } }
        return inBox.filter { ($0.distance ?? .infinity) <= radius }
            .sorted { ($0.distance ?? 0, $0.name) < ($1.distance ?? 0, $1.name) }
            .prefix(limit).map { $0 }
    }

    /// Number of indexed places of each kind.
    public func counts() throws -> [PlaceSearchKind: Int] {
        let rows = try locked { try database.query("SELECT kind, count(*) FROM place GROUP BY kind") { ($0.string(0), $0.int(1)) } }
        var result: [PlaceSearchKind: Int] = [:]
        for (kind, count) in rows { if let kind = PlaceSearchKind(rawValue: kind) { result[kind] = count } }
        return result
    }

    // MARK: - Building

    /// Adds transit stops to the index in `regionDirectory` (a staging directory during import);
    /// a stop whose id is already indexed is replaced.
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
                let old = try database.prepare("SELECT id, name FROM place WHERE stop_id = ?")
                let forget = try database.prepare("INSERT INTO place_text(place_text, rowid, name) VALUES ('delete', ?, ?)")
                let remove = try database.prepare("DELETE FROM place WHERE id = ?")
                let removeBox = try database.prepare("DELETE FROM place_box WHERE id = ?")
                for stop in stops {
                    let existing = try old.query([.text(stop.id)]) { ($0.int64(0), $0.string(1)) }
                    for (id, name) in existing {
                        try forget.run([.integer(id), .text(name)])
                        try remove.run([.integer(id)])
                        try removeBox.run([.integer(id)])
                    }
                }
                let inserter = try Inserter(database)
                for stop in stops {
                    let modes = Array(Set(stop.modes)).sorted().joined(separator: ",")
                    try inserter.insert(name: stop.name, kind: .stop, category: nil, coordinate: stop.coordinate,
                                        stopID: stop.id, modes: modes, osm: nil)
                }
            }
            database.close()
        }
    }

    /// Creates `places.sqlite` in `directory` from extracted OSM places.
    static func build(in directory: URL, places: [ExtractedPlace]) throws {
        let file = directory.appendingPathComponent(fileName)
        try? FileManager.default.removeItem(at: file)
        try wrap {
            let database = try Database(path: file.path, mode: .readWriteCreate)
            try database.execute("""
                CREATE TABLE place(
                    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, folded TEXT NOT NULL,
                    category TEXT, latitude REAL NOT NULL, longitude REAL NOT NULL,
                    stop_id TEXT UNIQUE, modes TEXT, osm TEXT);
                CREATE VIRTUAL TABLE place_text USING fts5(
                    name, content='place', content_rowid='id',
                    tokenize='unicode61 remove_diacritics 2', prefix='2 3 4');
                CREATE VIRTUAL TABLE place_box USING rtree(id, min_lat, max_lat, min_lon, max_lon);
                """)
            try database.transaction {
                let inserter = try Inserter(database)
                for place in places {
                    try inserter.insert(name: place.name, kind: place.kind, category: place.category,
                                        coordinate: place.coordinate, stopID: nil, modes: nil, osm: place.osmReference)
                }
            }
            try database.execute("INSERT INTO place_text(place_text) VALUES ('optimize')")
            database.close()
        }
    }

    /// Writes one place into the three tables.
    private struct Inserter {
        let database: Database
        let place: Statement
        let text: Statement
        let box: Statement

        init(_ database: Database) throws {
            self.database = database
            place = try database.prepare("""
                INSERT INTO place(kind, name, folded, category, latitude, longitude, stop_id, modes, osm)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            text = try database.prepare("INSERT INTO place_text(rowid, name) VALUES (?, ?)")
            box = try database.prepare("INSERT INTO place_box(id, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)")
        }

        func insert(name: String, kind: PlaceSearchKind, category: String?, coordinate: Coordinate,
                    stopID: String?, modes: String?, osm: String?) throws {
            try place.run([.text(kind.rawValue), .text(name), .text(PlaceIndex.fold(name)), .optional(category),
                           .real(coordinate.latitude), .real(coordinate.longitude), .optional(stopID), .optional(modes), .optional(osm)])
            let id = database.lastInsertRowID
            try text.run([.integer(id), .text(name)])
            try box.run([.integer(id), .real(coordinate.latitude), .real(coordinate.latitude),
                         .real(coordinate.longitude), .real(coordinate.longitude)])
        }
    }

    // MARK: - Helpers

    /// Lowercase without diacritics, as the FTS5 tokenizer sees it ("Hämeenkatu" → "hameenkatu").
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// Letters-and-digits runs of already folded text.
    static func words(_ folded: String) -> [String] {
        folded.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    private static func result(from row: Row, near: Coordinate?) -> PlaceSearchResult {
        let coordinate = Coordinate(latitude: row.double(3), longitude: row.double(4))
        let modes = row.optionalString(6).map { $0.split(separator: ",").map(String.init) } ?? []
        return PlaceSearchResult(name: row.string(0), coordinate: coordinate,
                                 kind: PlaceSearchKind(rawValue: row.string(1)) ?? .poi,
                                 category: row.optionalString(2), stopID: row.optionalString(5),
                                 transitModes: modes, distance: near.map { coordinate.distance(to: $0) })
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try PlaceIndex.wrap(body)
    }

    /// Turns the SQLite layer's errors into this module's typed error, keeping the evidence.
    private static func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw StreetsError.placeIndexFailed(error.description)
        }
    }
}
