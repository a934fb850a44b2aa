import Foundation
import Planner
import SQLite
import Synchronization

/// Search over a region's places: `places.sqlite` in the region directory. Names, addresses,
/// categories, typos, completion and reverse geocoding, all offline from the region's own
/// OpenStreetMap data and transit feed (docs/streets.md describes the tables and the ranking).
///
/// ```swift
/// let index = try PlaceIndex(regionDirectory: catalog.directory(of: "tampere"))
/// let hits = try index.search("hameenkatu 10", near: nil, kinds: nil, limit: 5)   // an address
/// let typed = try index.complete("hameenk", near: nil, limit: 10)
/// let here = try index.reverse(Coordinate(latitude: 61.4981, longitude: 23.7610))   // here.label: "near …"
/// let stops = try index.nearbyStops(around: keskustori, radius: 400, limit: 10)
/// ```
///
/// The index holds one read-only connection, used under a lock. After a re-import, open a new
/// `PlaceIndex`: this one keeps answering from the version it opened. An index written before
/// format 2 (no addresses, trigrams or street lines) still answers name searches; the rest
/// needs a re-import.
public final class PlaceIndex: Sendable {
    static let fileName = "places.sqlite"
    /// `PRAGMA user_version` of the index this code writes.
    static let formatVersion = 2
    /// Text matches considered before ranking by match quality and distance.
    static let candidateLimit = 2000
    /// The most of the file read through a map (SQLite caps it at its own limit, 2 GB by
    /// default; the rest is read as usual).
    static let mappedBytes: Int64 = 1 << 34
    /// SQLite's page cache for what the map does not serve (its default is 2 MB per connection).
    static let cacheKiB = 256
    /// Longest search text, in characters; longer text is refused, naming the limit.
    public static let maxQueryLength = 200

    let database: Database
    /// Held while the connection is used (one statement at a time).
    private let lock = Mutex(())
    /// False for an index of format 1: only the name tables exist.
    let hasSearchTables: Bool
    /// Every street that has addresses, folded, for typo-tolerant address lookups.
    let addressStreets: [String]
    /// The region's postcodes (`AddressQuery.normalizedPostcode` of its `addr:postcode` values):
    /// how a typed postcode is read, in whatever form the country writes it.
    let knownPostcodes: Set<String>
    /// The region's cities and districts, folded: its `addr:city` values and `place=*` names.
    let knownCities: Set<String>

    /// - throws: `StreetsError.placeIndexMissing` when the region has no index, `.placeIndexFailed` when it cannot be read.
    public init(regionDirectory: URL) throws {
        let file = regionDirectory.appendingPathComponent(PlaceIndex.fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { throw StreetsError.placeIndexMissing(file.path) }
        let database = try PlaceIndex.wrap { try Database(path: file.path, mode: .readOnly) }
        self.database = database
        // Read through a read-only map of the file rather than copied into SQLite's page cache
        // on the heap: its pages are the kernel's page cache, file-backed, shared and dropped
        // under pressure (issue 43). Safe to map: an import never writes a live version's index
        // (it writes a copy in a new version directory), so the file cannot shrink under it, and
        // SQLite maps no more than the file's size, so a truncated file reads as corrupt
        // (`placeIndexFailed`), never past its end.
        try PlaceIndex.wrap {
            try database.execute("PRAGMA mmap_size=\(PlaceIndex.mappedBytes)")
            try database.execute("PRAGMA cache_size=-\(PlaceIndex.cacheKiB)")
        }
        let version = try PlaceIndex.wrap { try database.query("PRAGMA user_version") { $0.int(0) }.first ?? 0 }
        hasSearchTables = version >= PlaceIndex.formatVersion
        addressStreets = hasSearchTables
            ? try PlaceIndex.wrap {
                try database.query("SELECT street_folded FROM address UNION SELECT street_folded FROM interpolation") { $0.string(0) }
            }
            : []
        knownPostcodes = hasSearchTables
            ? Set(try PlaceIndex.wrap {
                try database.query("SELECT DISTINCT postcode FROM address WHERE postcode IS NOT NULL") {
                    AddressQuery.normalizedPostcode($0.string(0))
                }
            })
            : []
        knownCities = hasSearchTables
            ? Set(try PlaceIndex.wrap {
                try database.query("""
                    SELECT DISTINCT city_folded FROM address WHERE city_folded IS NOT NULL
                    UNION SELECT folded FROM place WHERE kind = 'poi' AND category LIKE 'place=%'
                    """) { $0.string(0) }
            })
            : []
    }

    /// False when the text names a postcode or a city this region does not have: a typed
    /// "00100 Helsinki" rules out every place of a region without them. (A region that records
    /// no postcodes, or no cities, cannot contradict one.)
    func admits(_ query: AddressQuery) -> Bool {
        if let postcode = query.postcode, !knownPostcodes.isEmpty, !knownPostcodes.contains(postcode) { return false }
        if let city = query.city, !knownCities.isEmpty,
           !knownCities.contains(where: { $0.hasPrefix(city) || city.hasPrefix($0) }) { return false }
        return true
    }

    /// Number of indexed places of each kind.
    public func counts() throws -> [PlaceSearchKind: Int] {
        let rows = try locked { try database.query("SELECT kind, count(*) FROM place GROUP BY kind") { ($0.string(0), $0.int(1)) } }
        var result: [PlaceSearchKind: Int] = [:]
        for (kind, count) in rows { if let kind = PlaceSearchKind(rawValue: kind) { result[kind] = count } }
        return result
    }

    // MARK: - Nearby stops

    /// Transit stops within `radius` metres of `around`, nearest first, at most `limit`.
    /// - throws: `StreetsError.invalidQuery` for a negative or non-finite radius, a limit below 1 or an invalid coordinate.
    public func nearbyStops(around: Coordinate, radius: Double, limit: Int) throws -> [PlaceSearchResult] {
        guard around.isValid else { throw StreetsError.invalidQuery("invalid coordinate \(around.latitude),\(around.longitude)") }
        guard radius.isFinite, radius >= 0 else { throw StreetsError.invalidQuery("radius must be a non-negative number of metres, got \(radius)") }
        guard limit >= 1 else { throw StreetsError.invalidQuery("limit must be at least 1, got \(limit)") }
        return try placesAround(around, radius: radius, kinds: [.stop]).prefix(limit).map { $0 }
    }

    /// Places of `kinds` within `radius` metres of `around`, nearest first, with their distance.
    func placesAround(_ around: Coordinate, radius: Double, kinds: [PlaceSearchKind]) throws -> [PlaceSearchResult] {
        let box = Self.box(around: around, radius: radius)
        let sql = """
            SELECT \(selectColumns) FROM place_box b JOIN place p ON p.id = b.id \(addressJoin)
            WHERE b.min_lat <= ? AND b.max_lat >= ? AND b.min_lon <= ? AND b.max_lon >= ?
              AND p.kind IN (\(kinds.map { "'\($0.rawValue)'" }.joined(separator: ",")))
            """
        let bindings: [SQLiteValue] = [.real(box.maxLatitude), .real(box.minLatitude), .real(box.maxLongitude), .real(box.minLongitude)]
        let inBox = try locked { try database.query(sql, bindings) { self.result(from: $0, near: around) } }
        return inBox.filter { ($0.distance ?? .infinity) <= radius }
            .sorted { ($0.distance ?? 0, $0.name) < ($1.distance ?? 0, $1.name) }
    }

    // MARK: - Rows

    /// The columns `result(from:near:match:)` reads, in its order.
    var selectColumns: String {
        "p.name, p.kind, p.category, p.latitude, p.longitude, p.stop_id, p.modes, p.folded, "
            + (hasSearchTables ? "a.full" : "NULL")
    }

    var addressJoin: String { hasSearchTables ? "LEFT JOIN address a ON a.place_id = p.id" : "" }

    func result(from row: Row, near: Coordinate?, match: PlaceMatch = .exact) -> PlaceSearchResult {
        let coordinate = Coordinate(latitude: row.double(3), longitude: row.double(4))
        let modes = row.optionalString(6).map { $0.split(separator: ",").map(String.init) } ?? []
        var result = PlaceSearchResult(name: row.string(0), coordinate: coordinate,
                                       kind: PlaceSearchKind(rawValue: row.string(1)) ?? .poi,
                                       category: row.optionalString(2), stopID: row.optionalString(5).map(IndexedStop.id(fromKey:)),
                                       transitModes: modes, distance: near.map { coordinate.distance(to: $0) },
                                       address: row.optionalString(8), match: match)
        result.isUnnamed = result.kind == .poi && result.category.flatMap { PlaceCategory.of(tag: $0)?.label } == result.name
        // An unnamed place's "name" is its category's label: found by it, it is a category match.
        if result.isUnnamed, match < .category { result.match = .category }
        return result
    }

    /// An unnamed point of interest named for a person: "cafe (no name), Rua Augusta 12" (the
    /// address within 50 m), else "…, Rua Augusta" (the street within 100 m), else "cafe (no name)".
    func described(_ result: PlaceSearchResult) throws -> PlaceSearchResult {
        guard result.isUnnamed else { return result }
        var described = result
        let label = "\(result.name.lowercased()) (no name)"
        let address = try placesAround(result.coordinate, radius: ReverseGeocode.pointRadius, kinds: [.address]).first
        let street = address == nil ? try nearestStreet(to: result.coordinate).flatMap { ($0.distance ?? .infinity) <= 100 ? $0 : nil } : nil
        described.name = [label, address?.name ?? street?.name].compactMap { $0 }.joined(separator: ", ")
        return described
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

    /// The box around a point, `radius` metres each way.
    static func box(around point: Coordinate, radius: Double) -> RegionBoundingBox {
        let latSpan = radius / 111_195 + 1e-6
        let lonSpan = radius / max(1, 111_195 * cos(point.latitude * .pi / 180)) + 1e-6
        return RegionBoundingBox(minLatitude: point.latitude - latSpan, minLongitude: point.longitude - lonSpan,
                                 maxLatitude: point.latitude + latSpan, maxLongitude: point.longitude + lonSpan)
    }

    func locked<T: Sendable>(_ body: () throws -> T) throws -> T {
        try lock.withLock { _ in try PlaceIndex.wrap(body) }
    }

    /// Turns the SQLite layer's errors into this module's typed error, keeping the evidence.
    static func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw StreetsError.placeIndexFailed(error.description)
        }
    }
}
