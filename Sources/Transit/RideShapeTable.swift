import Foundation
import Planner
import SQLite

/// What a map needs to draw rides and RAPTOR does not: each trip's shape (`shapes.txt`, optional
/// in GTFS) and its route's colour (`routes.txt` `route_color`, optional). Read from the feed at
/// import, stored in two tables of `transit.sqlite`, and loaded only when a ride is drawn.
struct RideShapeTable: Sendable {
    struct TripLine: Hashable, Sendable {
        var shapeID: String?
        /// Six hex digits, upper case.
        var color: String?
    }

    /// Shape points in `shape_pt_sequence` order, by `shape_id` (qualified by the feed when an
    /// earlier feed of the region has the same one: `shapeKey`).
    var shapes: [String: [Coordinate]] = [:]
    /// By the feed's `trip_id` (frequency runs share their trip's entry): one line per feed that
    /// has a trip of that ID, in feed order (one feed's table holds one each).
    var trips: [String: [TripLine]] = [:]

    /// Adds feed `feed`'s entries (its position among the region's feeds, from 0). Feeds keep
    /// their own shapes and trips when their IDs collide, as their stops and trips do: a shape
    /// ID an earlier feed has is stored under `shapeKey`, and a trip ID several feeds have keeps
    /// a line per feed (`RideShapes` picks the ride's by where it runs).
    mutating func merge(_ other: RideShapeTable, feed: Int) {
        var renamed: [String: String] = [:]
        for (id, points) in other.shapes {
            let key = shapes[id] == nil ? id : Self.shapeKey(id, feed: feed)
            if key != id { renamed[id] = key }
            shapes[key] = points
        }
        for (id, lines) in other.trips {
            trips[id, default: []] += lines.map { line in
                var line = line
                line.shapeID = line.shapeID.map { renamed[$0] ?? $0 }
                return line
            }
        }
    }

    /// The key of feed `feed`'s shape `id` when an earlier feed has a shape of that ID (the unit
    /// separator, U+001F, does not occur in a feed's IDs in practice).
    static func shapeKey(_ id: String, feed: Int) -> String { "\(id)\u{1F}\(feed)" }

    // MARK: - Reading a feed

    /// Reads `routes.txt` colours, `trips.txt` shape ids and `shapes.txt` of one feed. Rows that
    /// cannot be used are counted in `report` and skipped; a feed without shapes gives only colours.
    static func read(_ zip: ZipArchive, feed: String, memory: ImportMemoryBudget?,
                     report: inout GTFSImportReport) throws -> RideShapeTable {
        var colors: [String: String] = [:]
        if var routes = try GTFSTable(zip: zip, file: "routes.txt", feed: feed, memory: memory),
           let idColumn = routes.column("route_id"), let colorColumn = routes.column("route_color") {
            while let row = try routes.next() {
                guard let color = row.optionalString(colorColumn) else { continue }
                guard color.count == 6, color.allSatisfy(\.isHexDigit) else {
                    report.skip("routes.txt: route_color is not six hex digits (drawn in the default colour)"); continue
                }
                colors[row.string(idColumn)] = color.uppercased()
            }
        }
        var table = RideShapeTable()
        if var trips = try GTFSTable(zip: zip, file: "trips.txt", feed: feed, memory: memory),
           let idColumn = trips.column("trip_id"), let routeColumn = trips.column("route_id") {
            let shapeColumn = trips.column("shape_id")
            while let row = try trips.next() {
                let line = TripLine(shapeID: row.optionalString(shapeColumn), color: colors[row.string(routeColumn)])
                if line.shapeID != nil || line.color != nil { table.trips[row.string(idColumn)] = [line] }
            }
        }
        guard var shapes = try GTFSTable(zip: zip, file: "shapes.txt", feed: feed, memory: memory) else { return table }
        let idColumn = try shapes.require("shape_id"), sequenceColumn = try shapes.require("shape_pt_sequence")
        let latColumn = try shapes.require("shape_pt_lat"), lonColumn = try shapes.require("shape_pt_lon")
        var points: [String: [(sequence: Int, point: Coordinate)]] = [:]
        while let row = try shapes.next() {
            guard let sequence = row.int(sequenceColumn), let lat = row.double(latColumn), let lon = row.double(lonColumn),
                  Coordinate(latitude: lat, longitude: lon).isValid else {
                report.skip("shapes.txt: missing or invalid shape_pt_lat/shape_pt_lon/shape_pt_sequence"); continue
            }
            points[row.string(idColumn), default: []].append((sequence, Coordinate(latitude: lat, longitude: lon)))
        }
        report.rowsRead["shapes.txt", default: 0] += shapes.rowsRead
        for (id, rows) in points {
            guard rows.count >= 2 else { report.skip("shapes.txt: shape with fewer than two points"); continue }
            table.shapes[id] = rows.sorted { $0.sequence < $1.sequence }.map(\.point)
        }
        return table
    }

    // MARK: - Storing

    static let createTables = """
        CREATE TABLE shapes(shape_id TEXT PRIMARY KEY, points BLOB NOT NULL) WITHOUT ROWID;
        CREATE TABLE trip_lines(trip_id TEXT NOT NULL, line INTEGER NOT NULL, shape_id TEXT, route_color TEXT,
                                PRIMARY KEY(trip_id, line)) WITHOUT ROWID;
        """

    /// Points are packed as little-endian Int32 microdegrees, latitude then longitude (10 cm).
    func write(into db: Database) throws {
        let shapeRows = try db.prepare("INSERT INTO shapes VALUES (?, ?)")
        for (id, points) in shapes {
            let packed = points.flatMap { [Int32(($0.latitude * 1e6).rounded()), Int32(($0.longitude * 1e6).rounded())] }
            try shapeRows.run([.text(id), .blob(TimetableStore.pack(packed))])
        }
        let tripRows = try db.prepare("INSERT INTO trip_lines VALUES (?, ?, ?, ?)")
        for (id, lines) in trips {
            for (k, line) in lines.enumerated() {
                try tripRows.run([.text(id), .int(k), .optional(line.shapeID), .optional(line.color)])
            }
        }
    }

    /// The tables of `transit.sqlite`; empty when the file predates them. A file written before
    /// feeds kept their own shapes (no `trip_lines.line`) has one line per trip ID.
    static func load(from file: URL) throws -> RideShapeTable {
        let db = try Database(path: file.path, mode: .readOnly)
        defer { db.close() }
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table'", []) { $0.string(0) }
        var table = RideShapeTable()
        guard tables.contains("shapes"), tables.contains("trip_lines") else { return table }
        for (id, blob) in try db.query("SELECT shape_id, points FROM shapes", [], { ($0.string(0), $0.blob(1)) }) {
            let values: [Int32] = TimetableStore.unpack(blob)
            table.shapes[id] = stride(from: 0, to: values.count - 1, by: 2).map {
                Coordinate(latitude: Double(values[$0]) / 1e6, longitude: Double(values[$0 + 1]) / 1e6)
            }
        }
        let hasLines = try db.query("SELECT count(*) FROM pragma_table_info('trip_lines') WHERE name = 'line'", [], { $0.int(0) }).first == 1
        let order = hasLines ? " ORDER BY trip_id, line" : ""
        for (id, shape, color) in try db.query("SELECT trip_id, shape_id, route_color FROM trip_lines" + order, [], {
            ($0.string(0), $0.optionalString(1), $0.optionalString(2))
        }) {
            table.trips[id, default: []].append(TripLine(shapeID: shape, color: color))
        }
        return table
    }
}
