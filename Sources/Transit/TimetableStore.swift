import Foundation
import SQLite

/// The timetable as stored in `<region>/transit.sqlite`, a derived cache with its own
/// schema version: stops, routes, service bitsets, patterns, and one row per trip whose
/// stop times are packed as little-endian Int32 blobs (a trip's times are always read
/// together, and this keeps both import and start-up fast).
///
/// Writes go to a temporary file that replaces the old one only once complete, so a failed
/// import leaves the region's previous timetable in place.
struct TimetableStore {
    /// Bump when the tables change; a file older than `oldestReadableSchemaVersion` (or newer
    /// than this) then asks for a re-import. Version 2 added `trips.headway_seconds`; a version 1
    /// file reads with every trip scheduled. Version 3 added `routes.agency_id`,
    /// `patterns.sequences` and `trips.direction_id` (for realtime matching); an older file reads
    /// with no agency, stops numbered 1, 2, 3, … and no direction. Version 4 added the `fares`
    /// meta entry (zones, fares and rules as JSON, small and always read whole); an older file
    /// reads with fares not read, so every price is unknown until the region is re-imported.
    /// Version 5 added `stops.wheelchair_boarding` (a platform's 0 already replaced by its station's)
    /// and `trips.wheelchair_accessible`; an older file reads with every stop and trip unknown.
    /// Version 6 groups trips into patterns by stop sequence whatever their route, so the route
    /// moved to `trips.route_idx` (`patterns.route_idx` holds the first trip's); an older file
    /// reads each trip's route from its pattern (one route a pattern, scanned apart).
    /// Version 7 added `footpaths.walk_metres` (the change walk's metres along the streets, NULL
    /// when timed as a straight line); an older file reads with every one NULL.
    static let schemaVersion = 7
    static let oldestReadableSchemaVersion = 1
    static let fileName = "transit.sqlite"

    let regionDirectory: URL
    var fileURL: URL { regionDirectory.appendingPathComponent(Self.fileName) }

    // MARK: - Writing

    func save(_ table: Timetable, report: GTFSImportReport) throws {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: regionDirectory, withIntermediateDirectories: true)
        } catch {
            throw TransitError.storage("cannot create \(regionDirectory.path): \(error.localizedDescription)")
        }
        let temporary = regionDirectory.appendingPathComponent(Self.fileName + ".importing")
        try? fm.removeItem(at: temporary)
        do {
            let db = try Database(path: temporary.path)
            try db.configure(ConnectionSettings(journalMode: .memory, synchronous: .off, foreignKeys: false))
            try db.transaction {
                try createTables(db)
                try write(table, report: report, into: db)
            }
            db.close()
        } catch let error as SQLiteError {
            try? fm.removeItem(at: temporary)
            throw TransitError.storage(error.description)
        } catch {
            try? fm.removeItem(at: temporary)
            throw error
        }
        for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: fileURL.path + suffix) }
        if rename(temporary.path, fileURL.path) != 0 {
            throw TransitError.storage("cannot move the new timetable into place at \(fileURL.path)")
        }
    }

    private func createTables(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE feeds(position INTEGER PRIMARY KEY, feed TEXT NOT NULL, first_day INTEGER NOT NULL, last_day INTEGER NOT NULL);
            CREATE TABLE stops(idx INTEGER PRIMARY KEY, stop_id TEXT NOT NULL, name TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
                               parent_station TEXT, mode_mask INTEGER NOT NULL, change_seconds INTEGER NOT NULL,
                               wheelchair_boarding INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE routes(idx INTEGER PRIMARY KEY, route_id TEXT NOT NULL, short_name TEXT NOT NULL, long_name TEXT NOT NULL,
                                route_type INTEGER NOT NULL, agency_id TEXT NOT NULL DEFAULT '');
            CREATE TABLE services(idx INTEGER PRIMARY KEY, service_id TEXT NOT NULL, first_day INTEGER NOT NULL, days BLOB NOT NULL);
            CREATE TABLE patterns(idx INTEGER PRIMARY KEY, route_idx INTEGER NOT NULL, stops BLOB NOT NULL, flags BLOB NOT NULL,
                                  first_trip INTEGER NOT NULL, trip_count INTEGER NOT NULL, min_time INTEGER NOT NULL, max_time INTEGER NOT NULL,
                                  sequences BLOB);
            CREATE TABLE trips(idx INTEGER PRIMARY KEY, pattern_idx INTEGER NOT NULL, trip_id TEXT NOT NULL, headsign TEXT NOT NULL,
                               service_idx INTEGER NOT NULL, arrivals BLOB NOT NULL, departures BLOB NOT NULL,
                               headway_seconds INTEGER, direction_id INTEGER, wheelchair_accessible INTEGER NOT NULL DEFAULT 0,
                               route_idx INTEGER NOT NULL);
            CREATE TABLE footpaths(from_idx INTEGER NOT NULL, to_idx INTEGER NOT NULL, walk_seconds INTEGER NOT NULL,
                                   minimum_seconds INTEGER NOT NULL, walk_metres INTEGER,
                                   PRIMARY KEY(from_idx, to_idx)) WITHOUT ROWID;
            """)
        try db.execute(RideShapeTable.createTables)
    }

    private func write(_ t: Timetable, report: GTFSImportReport, into db: Database) throws {
        let meta = try db.prepare("INSERT INTO meta(key, value) VALUES (?, ?)")
        let reportJSON = (try? JSONEncoder().encode(report)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
        let faresJSON: String
        do {
            faresJSON = String(decoding: try JSONEncoder().encode(t.fares), as: UTF8.self)
        } catch {
            throw TransitError.storage("cannot encode the fares: \(error)")
        }
        for (key, value) in [("schema_version", String(Self.schemaVersion)), ("time_zone", t.timeZoneID), ("fares", faresJSON),
                             ("imported_at", ISO8601DateFormatter().string(from: Date())), ("import_report", reportJSON)] {
            try meta.run([.text(key), .text(value)])
        }
        let feeds = try db.prepare("INSERT INTO feeds VALUES (?, ?, ?, ?)")
        for (i, f) in t.feeds.enumerated() { try feeds.run([.int(i), .text(f.feed), .int(f.firstDay), .int(f.lastDay)]) }
        let stops = try db.prepare("INSERT INTO stops VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for (i, s) in t.stops.enumerated() {
            try stops.run([.int(i), .text(s.id), .text(s.name), .real(s.latitude), .real(s.longitude),
                           .optional(s.parentStationID), .int(Int(s.modeMask)), .int(Int(t.changeSeconds[i])),
                           .int(Int(s.wheelchairBoarding))])
        }
        let routes = try db.prepare("INSERT INTO routes VALUES (?, ?, ?, ?, ?, ?)")
        for (i, r) in t.routes.enumerated() {
            try routes.run([.int(i), .text(r.id), .text(r.shortName), .text(r.longName), .int(r.routeType), .text(r.agencyID)])
        }
        let services = try db.prepare("INSERT INTO services VALUES (?, ?, ?, ?)")
        for (i, s) in t.services.enumerated() {
            try services.run([.int(i), .text(s.id), .int(s.firstDay), .blob(Self.pack(s.words))])
        }
        let patterns = try db.prepare("INSERT INTO patterns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let trips = try db.prepare("INSERT INTO trips VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for (pi, p) in t.patterns.enumerated() {
            let stopRange = Int(p.stopsStart)..<Int(p.stopsStart + p.stopCount)
            try patterns.run([.int(pi), .int(Int(t.tripRoutes[Int(p.firstTrip)])), .blob(Self.pack(Array(t.patternStops[stopRange]))),
                              .blob(Array(t.patternFlags[stopRange])), .int(Int(p.firstTrip)), .int(Int(p.tripCount)),
                              .int(Int(p.minTime)), .int(Int(p.maxTime)), .blob(Self.pack(Array(t.patternSequences[stopRange])))])
            let n = Int(p.stopCount)
            for k in 0..<Int(p.tripCount) {
                let trip = Int(p.firstTrip) + k
                let range = (Int(p.timesStart) + k * n)..<(Int(p.timesStart) + (k + 1) * n)
                try trips.run([.int(trip), .int(pi), .text(t.tripIDs[trip]), .text(t.tripHeadsigns[trip]),
                               .int(Int(t.tripServices[trip])), .blob(Self.pack(Array(t.arrivals[range]))),
                               .blob(Self.pack(Array(t.departures[range]))),
                               .optional(t.tripHeadways[trip] > 0 ? Int(t.tripHeadways[trip]) : nil),
                               .optional(t.tripDirections[trip] >= 0 ? Int(t.tripDirections[trip]) : nil),
                               .int(Int(t.tripWheelchair[trip])), .int(Int(t.tripRoutes[trip]))])
            }
        }
        let foot = try db.prepare("INSERT INTO footpaths VALUES (?, ?, ?, ?, ?)")
        for s in 0..<t.stops.count {
            for e in Int(t.footStart[s])..<Int(t.footStart[s + 1]) {
                let metres = t.footWalkMetres[e]
                try foot.run([.int(s), .int(Int(t.footTargets[e])), .int(Int(t.footWalkSeconds[e])), .int(Int(t.footMinimumSeconds[e])),
                              .optional(metres >= 0 ? Int(metres) : nil)])
            }
        }
        try t.rideShapes.write(into: db)
    }

    // MARK: - Reading

    /// Loads the timetable into memory and checks that every index in it is in range.
    func load() throws -> Timetable {
        guard FileManager.default.fileExists(atPath: fileURL.path) else {
            throw TransitError.timetableMissing(fileURL.path)
        }
        do {
            let db = try Database(path: fileURL.path, mode: .readOnly)
            return try db.readTransaction { try read(db) }
        } catch let error as SQLiteError {
            throw TransitError.storage(error.description)
        }
    }

    /// The report saved by the last import, if any.
    func savedReport() throws -> GTFSImportReport? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        do {
            let db = try Database(path: fileURL.path, mode: .readOnly)
            guard let text = try db.query("SELECT value FROM meta WHERE key = 'import_report'", [], { $0.string(0) }).first else { return nil }
            return try? JSONDecoder().decode(GTFSImportReport.self, from: Data(text.utf8))
        } catch let error as SQLiteError {
            throw TransitError.storage(error.description)
        }
    }

    private func read(_ db: Database) throws -> Timetable {
        var meta: [String: String] = [:]
        for (k, v) in try db.query("SELECT key, value FROM meta", [], { ($0.string(0), $0.string(1)) }) { meta[k] = v }
        let version = Int(meta["schema_version"] ?? "") ?? 0
        guard (Self.oldestReadableSchemaVersion...Self.schemaVersion).contains(version) else {
            throw TransitError.timetableSchemaMismatch(found: version, expected: Self.schemaVersion)
        }
        guard let zone = meta["time_zone"], TimeZone(identifier: zone) != nil else {
            throw TransitError.corruptTimetable("missing or unknown time zone")
        }
        var t = Timetable(timeZoneID: zone)
        if version >= 4 {
            guard let text = meta["fares"], let fares = try? JSONDecoder().decode(FareTable.self, from: Data(text.utf8)) else {
                throw TransitError.corruptTimetable("fares")
            }
            t.fares = fares
        }
        t.feeds = try db.query("SELECT feed, first_day, last_day FROM feeds ORDER BY position") {
            FeedServicePeriod(feed: $0.string(0), firstDay: $0.int(1), lastDay: $0.int(2))
        }
        let wheelchairColumn = version >= 5 ? "wheelchair_boarding" : "0"
        let stopRows = try db.query(
            "SELECT stop_id, name, lat, lon, parent_station, mode_mask, change_seconds, \(wheelchairColumn) FROM stops ORDER BY idx") { row in
            (Timetable.Stop(id: row.string(0), name: row.string(1), latitude: row.double(2), longitude: row.double(3),
                            parentStationID: row.optionalString(4), modeMask: UInt32(truncatingIfNeeded: row.int64(5)),
                            wheelchairBoarding: AccessibilityValue.stored(row.int(7))),
             Int32(truncatingIfNeeded: row.int64(6)))
        }
        t.stops = stopRows.map(\.0)
        t.changeSeconds = stopRows.map(\.1)
        let agencyColumn = version >= 3 ? "agency_id" : "''"
        t.routes = try db.query("SELECT route_id, short_name, long_name, route_type, \(agencyColumn) FROM routes ORDER BY idx") {
            Timetable.Route(id: $0.string(0), shortName: $0.string(1), longName: $0.string(2), routeType: $0.int(3),
                            agencyID: $0.string(4))
        }
        t.services = try db.query("SELECT service_id, first_day, days FROM services ORDER BY idx") {
            Timetable.Service(id: $0.string(0), firstDay: $0.int(1), words: Self.unpack($0.blob(2)))
        }
        let sequenceColumn = version >= 3 ? "sequences" : "NULL"
        let statement = try db.prepare(
            "SELECT route_idx, stops, flags, first_trip, trip_count, min_time, max_time, \(sequenceColumn) FROM patterns ORDER BY idx")
        var patternRoutes: [Int32] = []  // before version 6, every trip's route
        while let row = try statement.step() {
            let stops: [Int32] = Self.unpack(row.blob(1))
            let flags = row.blob(2)
            guard flags.count == stops.count, stops.count >= 2 else { throw TransitError.corruptTimetable("pattern stop lists") }
            let stored: [Int32] = version >= 3 ? Self.unpack(row.blob(7)) : []
            let sequences = stored.isEmpty ? stops.indices.map { Int32($0 + 1) } : stored
            guard sequences.count == stops.count else { throw TransitError.corruptTimetable("pattern stop sequences") }
            t.patternSequences.append(contentsOf: sequences)
            patternRoutes.append(Int32(truncatingIfNeeded: row.int64(0)))
            t.patterns.append(Timetable.Pattern(stopsStart: Int32(t.patternStops.count),
                                                stopCount: Int32(stops.count), firstTrip: Int32(truncatingIfNeeded: row.int64(3)),
                                                tripCount: Int32(truncatingIfNeeded: row.int64(4)), timesStart: 0,
                                                minTime: Int32(truncatingIfNeeded: row.int64(5)), maxTime: Int32(truncatingIfNeeded: row.int64(6))))
            t.patternStops.append(contentsOf: stops)
            t.patternFlags.append(contentsOf: flags)
        }
        let headwayColumn = version >= 2 ? "headway_seconds" : "NULL"
        let directionColumn = version >= 3 ? "direction_id" : "NULL"
        let accessibleColumn = version >= 5 ? "wheelchair_accessible" : "0"
        let routeColumn = version >= 6 ? "route_idx" : "-1"
        let tripStatement = try db.prepare(
            "SELECT pattern_idx, trip_id, headsign, service_idx, arrivals, departures, \(headwayColumn), \(directionColumn), "
                + "\(accessibleColumn), \(routeColumn) FROM trips ORDER BY idx")
        var lastPattern = -1
        while let row = try tripStatement.step() {
            let p = row.int(0)
            guard p >= 0, p < t.patterns.count, p >= lastPattern else { throw TransitError.corruptTimetable("trip pattern index") }
            if p != lastPattern {
                t.patterns[p].timesStart = Int32(t.arrivals.count)
                lastPattern = p
            }
            let arrivals: [Int32] = Self.unpack(row.blob(4)), departures: [Int32] = Self.unpack(row.blob(5))
            guard arrivals.count == Int(t.patterns[p].stopCount), departures.count == arrivals.count else {
                throw TransitError.corruptTimetable("trip \(row.string(1)) has the wrong number of stop times")
            }
            t.tripIDs.append(row.string(1))
            t.tripRoutes.append(version >= 6 ? Int32(truncatingIfNeeded: row.int64(9)) : patternRoutes[p])
            t.tripHeadsigns.append(row.string(2))
            t.tripServices.append(Int32(truncatingIfNeeded: row.int64(3)))
            let headway = row.optionalInt(6) ?? 0
            guard (0...Int(Int32.max)).contains(headway) else { throw TransitError.corruptTimetable("trip \(row.string(1)) headway") }
            t.tripHeadways.append(Int32(headway))
            let direction = row.optionalInt(7) ?? -1
            t.tripDirections.append(Int8((0...1).contains(direction) ? direction : -1))
            t.tripWheelchair.append(AccessibilityValue.stored(row.int(8)))
            t.arrivals.append(contentsOf: arrivals)
            t.departures.append(contentsOf: departures)
        }
        let metresColumn = version >= 7 ? "walk_metres" : "NULL"
        let footRows = try db.query("SELECT from_idx, to_idx, walk_seconds, minimum_seconds, \(metresColumn) FROM footpaths ORDER BY from_idx, to_idx") {
            ($0.int(0), Int32(truncatingIfNeeded: $0.int64(1)), Int32(truncatingIfNeeded: $0.int64(2)), Int32(truncatingIfNeeded: $0.int64(3)),
             $0.isNull(4) ? Int32(-1) : Int32(truncatingIfNeeded: $0.int64(4)))
        }
        t.footStart = [Int32](repeating: 0, count: t.stops.count + 1)
        for (from, to, walk, minimum, metres) in footRows {
            guard from >= 0, from < t.stops.count else { throw TransitError.corruptTimetable("footpath stop index") }
            t.footStart[from + 1] += 1
            t.footTargets.append(to)
            t.footWalkSeconds.append(walk)
            t.footMinimumSeconds.append(minimum)
            t.footWalkMetres.append(metres)
        }
        for s in 0..<t.stops.count { t.footStart[s + 1] += t.footStart[s] }
        try validate(t)
        t.buildIndexes()
        return t
    }

    /// Every stored index must point inside its array: RAPTOR trusts them.
    private func validate(_ t: Timetable) throws {
        let stopCount = Int32(t.stops.count)
        guard t.patternStops.allSatisfy({ $0 >= 0 && $0 < stopCount }),
              t.footTargets.allSatisfy({ $0 >= 0 && $0 < stopCount }) else {
            throw TransitError.corruptTimetable("stop index out of range")
        }
        guard t.tripServices.allSatisfy({ $0 >= 0 && Int($0) < t.services.count }) else {
            throw TransitError.corruptTimetable("service index out of range")
        }
        guard t.tripRoutes.allSatisfy({ $0 >= 0 && Int($0) < t.routes.count }) else {
            throw TransitError.corruptTimetable("trip route index out of range")
        }
        var expectedTrip: Int32 = 0
        for p in t.patterns {
            guard p.firstTrip == expectedTrip, p.tripCount > 0 else {
                throw TransitError.corruptTimetable("pattern trip range")
            }
            expectedTrip += p.tripCount
        }
        guard Int(expectedTrip) == t.tripIDs.count else { throw TransitError.corruptTimetable("trip count") }
        // Pricing trusts the fares' indexes as RAPTOR trusts the timetable's.
        let f = t.fares
        guard !f.isRead || (f.stopZones.count == t.stops.count && f.routeFeeds.count == t.routes.count
              && f.stopZones.allSatisfy({ $0 >= -1 && Int($0) < f.zoneNames.count })
              && f.fares.allSatisfy({ $0.routes.allSatisfy { $0 >= 0 && Int($0) < t.routes.count } })) else {
            throw TransitError.corruptTimetable("fare index out of range")
        }
    }

    // MARK: - Packing

    static func pack<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(values.count * MemoryLayout<T>.size)
        for v in values { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    static func unpack<T: FixedWidthInteger>(_ bytes: [UInt8]) -> [T] {
        let size = MemoryLayout<T>.size
        return bytes.withUnsafeBytes { raw in
            (0..<bytes.count / size).map { T(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * size, as: T.self)) }
        }
    }
}
