import CZip
import Foundation

/// A small region written by a test: an `.osm` XML street grid (planetsplitter and libreadosm
/// both read it) around a centre anywhere in the world, and optionally a GTFS zip with one line
/// between two of its corners, so zones, offsets and several regions are tested without any
/// data but Tampere's.
struct SmallRegion {
    var name: String
    var latitude: Double
    var longitude: Double
    /// Grid nodes per side, `spacing` metres apart; every street is two-way.
    var size = 9
    var spacing = 100.0
    /// A one-way service road from the middle of a block out to a corner, with no way in: its
    /// start can be left by car but never reached (a garage exit whose inside is not mapped).
    var withDeadEndExit = false
    /// Every street tagged `bicycle=no`: the routing database then holds no bicycle data.
    var bicyclesBanned = false
    /// A terrace below the middle of the south edge (`terracePoint`), 100 m down a flight of steps
    /// (`highway=steps`) from the edge, or 900 m round by a street from the south-east corner: a
    /// walk takes the steps, a wheelchair the street.
    var withStepsToTerrace = false

    /// The terrace of `withStepsToTerrace`, and the grid node its steps start from.
    var terracePoint: String { Self.text(point(row: -1, column: Double(size / 2))) }
    var stepsTop: String { Self.text(point(row: 0, column: Double(size / 2))) }

    /// Where a car cannot arrive when `withDeadEndExit`: a few metres from the exit's start.
    var deadEndPoint: String { Self.text(point(row: 1.53, column: 1.5)) }
    /// The grid's first and last corners.
    var southWest: String { Self.text(point(row: 0, column: 0)) }
    var northEast: String { Self.text(point(row: Double(size - 1), column: Double(size - 1))) }

    func point(row: Double, column: Double) -> (Double, Double) {
        let half = Double(size - 1) / 2
        return (latitude + (row - half) * spacing / 111_195,
                longitude + (column - half) * spacing / (111_195 * cos(latitude * .pi / 180)))
    }

    static func text(_ point: (Double, Double)) -> String { String(format: "%.6f,%.6f", point.0, point.1) }

    /// Writes `<name>.osm` into `directory`; streets are named "<Name> Street N" and "<Name> Avenue N".
    func writeOSM(in directory: URL) throws -> URL {
        var nodes: [String] = [], ways: [String] = []
        func id(_ row: Int, _ column: Int) -> Int { 1 + row * size + column }
        for row in 0..<size {
            for column in 0..<size {
                let (lat, lon) = point(row: Double(row), column: Double(column))
                nodes.append(String(format: "  <node id=\"%d\" version=\"1\" lat=\"%.7f\" lon=\"%.7f\"/>", id(row, column), lat, lon))
            }
        }
        let label = name.prefix(1).uppercased() + name.dropFirst()
        func way(_ wayID: Int, _ refs: [Int], _ tags: [String: String]) -> String {
            (["  <way id=\"\(wayID)\" version=\"1\">"] + refs.map { "    <nd ref=\"\($0)\"/>" }
                + tags.sorted { $0.key < $1.key }.map { "    <tag k=\"\($0.key)\" v=\"\($0.value)\"/>" } + ["  </way>"])
                .joined(separator: "\n")
        }
        let banned = bicyclesBanned ? ["bicycle": "no"] : [:]
        for index in 0..<size {
            ways.append(way(1_000 + index, (0..<size).map { id(index, $0) },
                            banned.merging(["highway": "residential", "name": "\(label) Street \(index + 1)"]) { $1 }))
            ways.append(way(2_000 + index, (0..<size).map { id($0, index) },
                            banned.merging(["highway": "residential", "name": "\(label) Avenue \(index + 1)"]) { $1 }))
        }
        if withDeadEndExit {
            let start = size * size + 1
            let (lat, lon) = point(row: 1.5, column: 1.5)
            nodes.append(String(format: "  <node id=\"%d\" version=\"1\" lat=\"%.7f\" lon=\"%.7f\"/>", start, lat, lon))
            ways.append(way(3_000, [start, id(1, 1)], ["highway": "service", "oneway": "yes"]))
        }
        if withStepsToTerrace {
            let terrace = size * size + 3, corner = size * size + 4
            for (node, column) in [(terrace, Double(size / 2)), (corner, Double(size - 1))] {
                let (lat, lon) = point(row: -1, column: column)
                nodes.append(String(format: "  <node id=\"%d\" version=\"1\" lat=\"%.7f\" lon=\"%.7f\"/>", node, lat, lon))
            }
            ways.append(way(4_000, [id(0, size / 2), terrace], ["highway": "steps"]))
            ways.append(way(4_001, [terrace, corner, id(0, size - 1)], ["highway": "residential", "name": "\(label) Terrace"]))
        }
        let (cafeLat, cafeLon) = point(row: 0.5, column: 0.2)
        nodes.append(String(format: "  <node id=\"%d\" version=\"1\" lat=\"%.7f\" lon=\"%.7f\">\n    <tag k=\"amenity\" v=\"cafe\"/>\n    <tag k=\"name\" v=\"%@ Corner Cafe\"/>\n  </node>",
                            size * size + 2, cafeLat, cafeLon, label))
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"usefulmap-tests\">\n"
            + (nodes + ways).joined(separator: "\n") + "\n</osm>\n"
        let url = directory.appendingPathComponent("\(name).osm")
        try Data(xml.utf8).write(to: url)
        return url
    }

    /// One line from "<from stop>" (south-west corner) to "<to stop>" (north-east corner), one trip
    /// a day at `departure`, taking `minutes`; every day of `dates` (YYYYMMDD).
    struct Line {
        var zone: String
        var fromStop: String
        var toStop: String
        var departure: String
        var minutes: Int
        var dates: (first: String, last: String)
        /// With a `frequencies.txt` row: the trip runs every `seconds` from `departure` until
        /// `until`, as a schedule (`exactTimes`) or as headway-based service.
        var frequency: (seconds: Int, until: String, exactTimes: Bool)? = nil
        /// The days as `calendar_dates.txt` rows (one added day each) and no `calendar.txt`.
        var calendarDatesOnly = false
        /// A third stop with this name, `metres` north of the grid's north-east corner, where the
        /// trip goes on to (a feed reaching past the street map).
        var farStop: (name: String, metres: Double)? = nil
        /// What the stop IDs start with ("S1", "S2", …).
        var stopIDPrefix = "S"
    }

    /// Where `Line.farStop` is.
    func farPoint(metres: Double) -> (Double, Double) {
        let (lat, lon) = point(row: Double(size - 1), column: Double(size - 1))
        return (lat + metres / 111_195, lon)
    }

    /// Every day from `first` to `last` (YYYYMMDD), inclusive.
    static func days(from first: String, to last: String) -> [String] {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        guard var day = formatter.date(from: first), let end = formatter.date(from: last) else { return [] }
        var days: [String] = []
        while day <= end {
            days.append(formatter.string(from: day))
            day += 86_400
        }
        return days
    }

    func writeFeed(_ line: Line, in directory: URL, fileName: String? = nil) throws -> URL {
        let (aLat, aLon) = point(row: 0, column: 0)
        let (bLat, bLon) = point(row: Double(size - 1), column: Double(size - 1))
        let parts = line.departure.split(separator: ":").compactMap { Int($0) }
        let arrival = String(format: "%02d:%02d:00", parts[0] + (parts[1] + line.minutes) / 60, (parts[1] + line.minutes) % 60)
        var files: [String: String] = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,\(name) transit,https://example.org,\(line.zone)\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n"
                + String(format: "%@1,%@,%.7f,%.7f\n%@2,%@,%.7f,%.7f\n", line.stopIDPrefix, line.fromStop, aLat, aLon,
                         line.stopIDPrefix, line.toStop, bLat, bLon),
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,7,1\n",
            "trips.txt": "route_id,service_id,trip_id\nR,ALL,T1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "T1,\(line.departure),\(line.departure),\(line.stopIDPrefix)1,1\nT1,\(arrival),\(arrival),\(line.stopIDPrefix)2,2\n",
        ]
        if line.calendarDatesOnly {
            files["calendar_dates.txt"] = "service_id,date,exception_type\n"
                + Self.days(from: line.dates.first, to: line.dates.last).map { "ALL,\($0),1\n" }.joined()
        } else {
            files["calendar.txt"] = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + "ALL,1,1,1,1,1,1,1,\(line.dates.first),\(line.dates.last)\n"
        }
        if let far = line.farStop {
            let (cLat, cLon) = farPoint(metres: far.metres)
            files["stops.txt", default: ""] += String(format: "%@3,%@,%.7f,%.7f\n", line.stopIDPrefix, far.name, cLat, cLon)
            files["stop_times.txt", default: ""] += "T1,\(arrival),\(arrival),\(line.stopIDPrefix)3,3\n"
        }
        if let frequency = line.frequency {
            files["frequencies.txt"] = "trip_id,start_time,end_time,headway_secs,exact_times\n"
                + "T1,\(line.departure),\(frequency.until),\(frequency.seconds),\(frequency.exactTimes ? 1 : 0)\n"
        }
        return try writeZip(files, in: directory, fileName: fileName ?? "\(name).zip")
    }

    /// Writes a GTFS zip of `files` (name → CSV text) as `fileName` in `directory`.
    func writeZip(_ files: [String: String], in directory: URL, fileName: String) throws -> URL {
        let url = directory.appendingPathComponent(fileName)
        try Self.writeZip(files, to: url, scratch: directory.appendingPathComponent("\(name)-gtfs-\(UUID().uuidString.prefix(6))"))
        return url
    }

    /// Writes `files` (name → text) into the zip at `url`, through the folder `scratch`.
    static func writeZip(_ files: [String: String], to url: URL, scratch folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var code: Int32 = 0
        guard let archive = zip_open(url.path, ZIP_CREATE | ZIP_TRUNCATE, &code) else { throw HarnessError("zip_open failed \(code)") }
        for (file, text) in files.sorted(by: { $0.key < $1.key }) {
            let path = folder.appendingPathComponent(file)
            try Data(text.utf8).write(to: path)
            guard let source = zip_source_file(archive, path.path, 0, -1),
                  zip_file_add(archive, file, source, zip_flags_t(ZIP_FL_OVERWRITE)) >= 0 else {
                zip_discard(archive)
                throw HarnessError("zip_file_add failed for \(file)")
            }
        }
        guard zip_close(archive) == 0 else { throw HarnessError("zip_close failed") }
    }
}

extension DaemonHarness {
    /// Imports each small region with its line through `umctl region import`; the import reports, in order.
    func importSmallRegions(_ regions: [(SmallRegion, SmallRegion.Line)]) throws -> [String] {
        try regions.map { region, line in
            let result = try umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: directory).path,
                                    "--gtfs", try region.writeFeed(line, in: directory).path])
            guard result.status == 0 else { throw HarnessError("import \(region.name): \(result.stderr)") }
            return result.stdout
        }
    }
}
