import Foundation
import Planner
import Transit

/// `usefulmap-bench scale`: how import and queries grow with the feed. Builds feeds 1×, 4×
/// and 16× the Tampere feed in two layouts and reports, at each size, the import time, the
/// timetable's memory and the engine's depart-at / arrive-by p50 and p99:
/// - *laid over*: copies on the same stops, with new route and trip IDs and departures
///   shifted by 97 s per copy (a denser network: more routes at every stop);
/// - *tiled*: copies side by side on a grid 0.5° × 1° apart, with new stop, route and trip
///   IDs (a wider network; a query stays inside one tile).
/// Queries: 500 seeded pairs as in the transit suite (Wednesday 2022-01-12, 06:00–11:00);
/// the engine's wall time, and the whole query's CPU time (this thread's, which other work
/// on a shared machine does not inflate). At each size, a plain connection scan on the same
/// depart-at queries is the yardstick (`YardstickComparison`).
/// `--layouts=tiled` (or `laid-over`) and `--factors=1,16` run only those feeds, `--queries=N`
/// takes N pairs: a short run for profiling the engine (callgrind).
func runScaleSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "scale")
    let work = FileManager.default.temporaryDirectory
        .appendingPathComponent("usefulmap-bench-scale-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let source = try FeedTables(zip: sharedDirectory().appendingPathComponent("data/tampere/tampere.zip"),
                                scratch: work.appendingPathComponent("source"))

    let layouts = benchOption("layouts").map { names in
        FeedCopies.Layout.allCases.filter { names.split(separator: ",").contains(Substring($0.rawValue.replacingOccurrences(of: " ", with: "-"))) }
    } ?? FeedCopies.Layout.allCases
    let factors = benchOption("factors").map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1, 4, 16]
    let queries = max(1, Int(benchOption("queries") ?? "") ?? 500)
    for layout in layouts {
        for factor in factors {
            let name = "\(layout.rawValue) \(factor)×"
            let copies = FeedCopies(layout: layout, count: factor)
            let zip = try copies.write(source, to: work.appendingPathComponent("\(layout.rawValue)-\(factor)"))
            let region = work.appendingPathComponent("region-\(layout.rawValue)-\(factor)")
            let (imported, importSeconds) = try time { try GTFSImporter().importFeeds([zip], intoRegionDirectory: region) }
            report.add("\(name) import", importSeconds * 1000, unit: "ms")
            report.add("\(name) import peak memory (process so far)", peakMemoryMiB(), unit: "MiB")
            let router = try TransitRouter(regionDirectory: region)
            report.add("\(name) timetable in memory", Double(router.memoryBytes) / 1_048_576, unit: "MiB")
            report.notes["\(name) feed"] = "\(imported.stops) stops, \(imported.trips) trips, \(imported.stopTimes) stop times, \(imported.patterns) patterns, \(imported.footpaths) footpaths"

            let pairs = try queryPairs(router, copies: copies, count: queries)
            var engineTimes: [Bool: [Double]] = [:]
            for arriveBy in [false, true] {
                var engine: [Double] = [], cpu: [Double] = []
                var failures = 0
                for (from, to, when) in pairs {
                    let timing: LegTiming = arriveBy ? .arriveBy(when.addingTimeInterval(3600)) : .departAt(when)
                    let (result, cpuSeconds) = cpuTime { try? router.leg(from: from, to: to, timing: timing, pace: .normal) }
                    if let result {
                        engine.append(result.engineSeconds)
                        cpu.append(cpuSeconds)
                    } else {
                        failures += 1
                    }
                }
                engineTimes[arriveBy] = engine
                report.addLatencies("\(name) \(arriveBy ? "arrive-by" : "depart-at") engine", engine)
                report.addLatencies("\(name) \(arriveBy ? "arrive-by" : "depart-at") query CPU", cpu)
                report.notes["\(name) \(arriveBy ? "arrive-by" : "depart-at") without journey"] = "\(failures)"
            }
            YardstickComparison(router, pairs: pairs).add(to: &report, prefix: "\(name) ", engineDepartAt: engineTimes[false] ?? [],
                                                          engineArriveBy: engineTimes[true] ?? [])
            try? FileManager.default.removeItem(at: region)
            try? FileManager.default.removeItem(at: zip)
        }
    }
    return report
}

/// Seeded pairs in the city's extent, both ends within the access radius of a stop, moved
/// together into one randomly chosen copy's tile.
private func queryPairs(_ router: TransitRouter, copies: FeedCopies, count: Int) throws -> [(Coordinate, Coordinate, Date)] {
    var generator = SeededGenerator(seed: 6)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = router.timeZone
    guard let dayStart = calendar.date(from: DateComponents(year: 2022, month: 1, day: 12, hour: 6)) else {
        throw RoutingError.engineFailure("cannot build the benchmark date")
    }
    var pairs: [(Coordinate, Coordinate, Date)] = []
    while pairs.count < count {
        let copy = Int.random(in: 0..<copies.count, using: &generator)
        func point() -> Coordinate {
            copies.shifted(Coordinate(latitude: Double.random(in: 61.44...61.53, using: &generator),
                                      longitude: Double.random(in: 23.62...23.90, using: &generator)), copy: copy)
        }
        let from = point(), to = point()
        let when = dayStart.addingTimeInterval(Double(Int.random(in: 0..<(5 * 3600), using: &generator)))
        if router.nearbyStops(around: from, radius: TransitRouter.defaultAccessRadius, limit: 1).isEmpty
            || router.nearbyStops(around: to, radius: TransitRouter.defaultAccessRadius, limit: 1).isEmpty {
            continue
        }
        pairs.append((from, to, when))
    }
    return pairs
}

/// The GTFS files of a feed as header + rows of raw fields (the files copies need).
struct FeedTables {
    static let copied = ["agency.txt", "calendar.txt", "calendar_dates.txt", "routes.txt", "trips.txt",
                         "stops.txt", "stop_times.txt", "transfers.txt"]
    var tables: [String: (header: [String], rows: [[Substring]])] = [:]

    init(zip: URL, scratch: URL) throws {
        try runTool("/usr/bin/unzip", ["-q", "-o", zip.path, "-d", scratch.path])
        for file in Self.copied {
            let url = scratch.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            var lines = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline)
            guard !lines.isEmpty else { continue }
            let header = csvFields(lines.removeFirst()).map { String($0).trimmingCharacters(in: .init(charactersIn: "\u{FEFF}")) }
            tables[file] = (header, lines.map(csvFields))
        }
    }
}

/// How copies of a feed are laid out, and how to write them as one GTFS zip.
struct FeedCopies {
    enum Layout: String, CaseIterable {
        case laidOver = "laid over"
        case tiled
    }

    var layout: Layout
    var count: Int
    /// Seconds each laid-over copy's departures are shifted by.
    static let shiftSeconds = 97

    /// Tiles on a square grid, 0.5° of latitude by 1° of longitude apart (about 55 km).
    func shifted(_ c: Coordinate, copy: Int) -> Coordinate {
        guard layout == .tiled else { return c }
        let side = Int(Double(count).squareRoot().rounded(.up))
        return Coordinate(latitude: c.latitude + 0.5 * Double(copy / side), longitude: c.longitude + Double(copy % side))
    }

    /// Writes the copies into `directory` and zips them; returns the zip.
    func write(_ feed: FeedTables, to directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (file, table) in feed.tables {
            var text = table.header.joined(separator: ",") + "\n"
            for copy in 0..<count {
                guard let rows = rows(of: file, table, copy: copy) else { continue }
                for row in rows { text += row.joined(separator: ",") + "\n" }
            }
            try text.write(to: directory.appendingPathComponent(file), atomically: false, encoding: .utf8)
        }
        let zip = directory.appendingPathExtension("zip")
        try runTool("/usr/bin/zip", ["-q", "-j", zip.path] + feed.tables.keys.sorted().map { directory.appendingPathComponent($0).path })
        try FileManager.default.removeItem(at: directory)
        return zip
    }

    /// Copy `copy` of one file's rows, or nil when the file is written once (copy 0 only).
    private func rows(of file: String, _ table: (header: [String], rows: [[Substring]]), copy: Int) -> [[String]]? {
        let tiled = layout == .tiled
        let prefix = copy == 0 ? "" : "c\(copy)_"
        var renamed: Set<String> = []
        var timeShift = 0
        var moves = false
        switch file {
        case "routes.txt": renamed = ["route_id"]
        case "trips.txt": renamed = ["route_id", "trip_id", "block_id"]
        case "stop_times.txt":
            renamed = tiled ? ["trip_id", "stop_id"] : ["trip_id"]
            timeShift = tiled ? 0 : copy * Self.shiftSeconds
        case "stops.txt", "transfers.txt":
            guard tiled || copy == 0 else { return nil }
            renamed = ["stop_id", "parent_station", "from_stop_id", "to_stop_id", "from_route_id", "to_route_id",
                       "from_trip_id", "to_trip_id"]
            moves = file == "stops.txt"
        default:
            guard copy == 0 else { return nil }
        }
        let columns = table.header.enumerated()
        return table.rows.map { row in
            var out = row.map(String.init)
            for (k, name) in columns where k < out.count {
                let value = out[k].trimmingCharacters(in: .init(charactersIn: "\""))
                if renamed.contains(name) && !value.isEmpty {
                    out[k] = prefix + value
                } else if timeShift != 0 && (name == "arrival_time" || name == "departure_time"), let seconds = gtfsSeconds(value) {
                    out[k] = gtfsTime(seconds + timeShift)
                } else if moves && (name == "stop_lat" || name == "stop_lon"), let degrees = Double(value) {
                    let moved = shifted(Coordinate(latitude: name == "stop_lat" ? degrees : 0,
                                                   longitude: name == "stop_lon" ? degrees : 0), copy: copy)
                    out[k] = String(name == "stop_lat" ? moved.latitude : moved.longitude)
                }
            }
            return out
        }
    }
}

/// Fields of one CSV line, with their quotes kept (none of the copied fields contains a comma).
func csvFields(_ line: Substring) -> [Substring] {
    var fields: [Substring] = []
    var start = line.startIndex
    var quoted = false
    var index = line.startIndex
    while index < line.endIndex {
        let c = line[index]
        if c == "\"" { quoted.toggle() } else if c == "," && !quoted {
            fields.append(line[start..<index])
            start = line.index(after: index)
        }
        index = line.index(after: index)
    }
    fields.append(line[start..<line.endIndex])
    return fields
}

private func gtfsSeconds(_ text: String) -> Int? {
    let parts = text.split(separator: ":").compactMap { Int($0) }
    guard parts.count == 3 else { return nil }
    return parts[0] * 3600 + parts[1] * 60 + parts[2]
}

private func gtfsTime(_ seconds: Int) -> String {
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(twoDigits(seconds / 3600)):\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60))"
}

func runTool(_ path: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw RoutingError.engineFailure("\(path) exited with \(process.terminationStatus)")
    }
}
