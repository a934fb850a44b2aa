import Foundation

/// A small region written by a test: an `.osm` XML street grid (planetsplitter and libreadosm
/// both read it) around a centre anywhere in the world, and optionally a GTFS zip with one line
/// between two of its corners, so zones, offsets and several regions are tested without any
/// data but Tampere's.
public struct SmallRegion: Sendable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// Grid nodes per side, `spacing` metres apart; every street is two-way.
    public var size = 9
    public var spacing = 100.0
    /// A one-way service road from the middle of a block out to a corner, with no way in: its
    /// start can be left by car but never reached (a garage exit whose inside is not mapped).
    public var withDeadEndExit = false
    /// Every street tagged `bicycle=no`: the routing database then holds no bicycle data.
    public var bicyclesBanned = false
    /// A terrace below the middle of the south edge (`terracePoint`), 100 m down a flight of steps
    /// (`highway=steps`) from the edge, or 900 m round by a street from the south-east corner: a
    /// walk takes the steps, a wheelchair the street.
    public var withStepsToTerrace = false

    public init(name: String, latitude: Double, longitude: Double, size: Int = 9, spacing: Double = 100.0,
                withDeadEndExit: Bool = false, bicyclesBanned: Bool = false, withStepsToTerrace: Bool = false) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.size = size
        self.spacing = spacing
        self.withDeadEndExit = withDeadEndExit
        self.bicyclesBanned = bicyclesBanned
        self.withStepsToTerrace = withStepsToTerrace
    }

    /// The terrace of `withStepsToTerrace`, and the grid node its steps start from.
    public var terracePoint: String { Self.text(point(row: -1, column: Double(size / 2))) }
    public var stepsTop: String { Self.text(point(row: 0, column: Double(size / 2))) }

    /// Where a car cannot arrive when `withDeadEndExit`: a few metres from the exit's start.
    public var deadEndPoint: String { Self.text(point(row: 1.53, column: 1.5)) }
    /// The grid's first and last corners.
    public var southWest: String { Self.text(point(row: 0, column: 0)) }
    public var northEast: String { Self.text(point(row: Double(size - 1), column: Double(size - 1))) }

    public func point(row: Double, column: Double) -> (Double, Double) {
        let half = Double(size - 1) / 2
        return (latitude + (row - half) * spacing / 111_195,
                longitude + (column - half) * spacing / (111_195 * cos(latitude * .pi / 180)))
    }

    public static func text(_ point: (Double, Double)) -> String { String(format: "%.6f,%.6f", point.0, point.1) }

    /// Writes `<name>.osm` into `directory`; streets are named "<Name> Street N" and "<Name> Avenue N".
    public func writeOSM(in directory: URL) throws -> URL {
        var document = OSMDocument()
        func id(_ row: Int, _ column: Int) -> Int { 1 + row * size + column }
        func node(_ id: Int, _ point: (Double, Double), tags: [(String, String)] = []) {
            document.node(id, latitude: point.0, longitude: point.1, tags: tags)
        }
        for row in 0..<size {
            for column in 0..<size { node(id(row, column), point(row: Double(row), column: Double(column))) }
        }
        let label = name.prefix(1).uppercased() + name.dropFirst()
        var ways: [(Int, [Int], [String: String])] = []
        let banned = bicyclesBanned ? ["bicycle": "no"] : [:]
        for index in 0..<size {
            ways.append((1_000 + index, (0..<size).map { id(index, $0) },
                         banned.merging(["highway": "residential", "name": "\(label) Street \(index + 1)"]) { $1 }))
            ways.append((2_000 + index, (0..<size).map { id($0, index) },
                         banned.merging(["highway": "residential", "name": "\(label) Avenue \(index + 1)"]) { $1 }))
        }
        if withDeadEndExit {
            let start = size * size + 1
            node(start, point(row: 1.5, column: 1.5))
            ways.append((3_000, [start, id(1, 1)], ["highway": "service", "oneway": "yes"]))
        }
        if withStepsToTerrace {
            let terrace = size * size + 3, corner = size * size + 4
            for (nodeID, column) in [(terrace, Double(size / 2)), (corner, Double(size - 1))] {
                node(nodeID, point(row: -1, column: column))
            }
            ways.append((4_000, [id(0, size / 2), terrace], ["highway": "steps"]))
            ways.append((4_001, [terrace, corner, id(0, size - 1)], ["highway": "residential", "name": "\(label) Terrace"]))
        }
        node(size * size + 2, point(row: 0.5, column: 0.2), tags: [("amenity", "cafe"), ("name", "\(label) Corner Cafe")])
        for (wayID, refs, tags) in ways { document.way(wayID, refs, tags: OSMDocument.sorted(tags)) }
        return try document.write(to: directory.appendingPathComponent("\(name).osm"))
    }

    /// One line from "<from stop>" (south-west corner) to "<to stop>" (north-east corner), one trip
    /// a day at `departure`, taking `minutes`; every day of `dates` (YYYYMMDD).
    public struct Line: Sendable {
        public var zone: String
        public var fromStop: String
        public var toStop: String
        public var departure: String
        public var minutes: Int
        public var dates: (first: String, last: String)
        /// With a `frequencies.txt` row: the trip runs every `seconds` from `departure` until
        /// `until`, as a schedule (`exactTimes`) or as headway-based service.
        public var frequency: (seconds: Int, until: String, exactTimes: Bool)? = nil
        /// The days as `calendar_dates.txt` rows (one added day each) and no `calendar.txt`.
        public var calendarDatesOnly = false
        /// A third stop with this name, `metres` north of the grid's north-east corner, where the
        /// trip goes on to (a feed reaching past the street map).
        public var farStop: (name: String, metres: Double)? = nil
        /// What the stop IDs start with ("S1", "S2", …).
        public var stopIDPrefix = "S"

        public init(zone: String, fromStop: String, toStop: String, departure: String, minutes: Int,
                    dates: (first: String, last: String), frequency: (seconds: Int, until: String, exactTimes: Bool)? = nil,
                    calendarDatesOnly: Bool = false, farStop: (name: String, metres: Double)? = nil, stopIDPrefix: String = "S") {
            self.zone = zone
            self.fromStop = fromStop
            self.toStop = toStop
            self.departure = departure
            self.minutes = minutes
            self.dates = dates
            self.frequency = frequency
            self.calendarDatesOnly = calendarDatesOnly
            self.farStop = farStop
            self.stopIDPrefix = stopIDPrefix
        }
    }

    /// Where `Line.farStop` is.
    public func farPoint(metres: Double) -> (Double, Double) {
        let (lat, lon) = point(row: Double(size - 1), column: Double(size - 1))
        return (lat + metres / 111_195, lon)
    }

    /// Every day from `first` to `last` (YYYYMMDD), inclusive.
    public static func days(from first: String, to last: String) -> [String] {
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

    /// `point(row:column:)` at the 7 decimals a feed gives its stops in.
    public func stopPoint(row: Double, column: Double) -> (Double, Double) { Self.sevenDecimals(point(row: row, column: column)) }

    private static func sevenDecimals(_ point: (Double, Double)) -> (Double, Double) {
        ((point.0 * 1e7).rounded() / 1e7, (point.1 * 1e7).rounded() / 1e7)
    }

    /// The line's feed (`MiniFeed`), with its stops at 7 decimals as feeds give them.
    public func feed(_ line: Line) -> MiniFeed {
        func stop(_ number: Int, _ name: String, _ point: (Double, Double)) -> (String, String, Double, Double) {
            let (lat, lon) = Self.sevenDecimals(point)
            return ("\(line.stopIDPrefix)\(number)", name, lat, lon)
        }
        let parts = line.departure.split(separator: ":").compactMap { Int($0) }
        let arrival = String(format: "%02d:%02d:00", parts[0] + (parts[1] + line.minutes) / 60, (parts[1] + line.minutes) % 60)
        var feed = MiniFeed()
        feed.zone = line.zone
        feed.agencyName = "\(name) transit"
        feed.agencyURL = "https://example.org"
        feed.stops = [stop(1, line.fromStop, point(row: 0, column: 0)),
                      stop(2, line.toStop, point(row: Double(size - 1), column: Double(size - 1)))]
        var calls = [(feed.stops[0].id, line.departure), (feed.stops[1].id, arrival)]
        if let far = line.farStop {
            feed.stops.append(stop(3, far.name, farPoint(metres: far.metres)))
            calls.append((feed.stops[2].id, arrival))
        }
        feed.routes = [("R", "7", 1)]
        feed.trip("T1", route: "R", calls)
        if line.calendarDatesOnly {
            feed.calendar = ""
            feed.calendarDates = "service_id,date,exception_type\n"
                + Self.days(from: line.dates.first, to: line.dates.last).map { "ALL,\($0),1\n" }.joined()
        } else {
            feed.calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + "ALL,1,1,1,1,1,1,1,\(line.dates.first),\(line.dates.last)\n"
        }
        if let frequency = line.frequency {
            feed.frequencies = "trip_id,start_time,end_time,headway_secs,exact_times\n"
                + "T1,\(line.departure),\(frequency.until),\(frequency.seconds),\(frequency.exactTimes ? 1 : 0)\n"
        }
        return feed
    }

    /// Writes the line's feed as `fileName` (`<name>.zip`) in `directory`.
    public func writeFeed(_ line: Line, in directory: URL, fileName: String? = nil) throws -> URL {
        try writeZip(feed(line).files, in: directory, fileName: fileName ?? "\(name).zip")
    }

    /// Writes a GTFS zip of `files` (name → CSV text) as `fileName` in `directory`.
    public func writeZip(_ files: [String: String], in directory: URL, fileName: String) throws -> URL {
        let url = directory.appendingPathComponent(fileName)
        try GTFSZip.write(files, to: url)
        return url
    }

    /// Writes `files` (name → text) into the zip at `url` (`GTFSZip.write`; `scratch` is no longer used).
    public static func writeZip(_ files: [String: String], to url: URL, scratch folder: URL) throws {
        try GTFSZip.write(files, to: url)
    }
}

extension DaemonHarness {
    /// Imports each small region with its line through `umctl region import`; the import reports, in order.
    public func importSmallRegions(_ regions: [(SmallRegion, SmallRegion.Line)]) throws -> [String] {
        try regions.map { region, line in
            let result = try umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: directory).path,
                                    "--gtfs", try region.writeFeed(line, in: directory).path])
            guard result.status == 0 else { throw HarnessError("import \(region.name): \(result.stderr)") }
            return result.stdout
        }
    }
}
