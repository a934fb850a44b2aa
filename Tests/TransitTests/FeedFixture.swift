import CZip
import Foundation
import Planner
@testable import Transit
import XCTest

/// Builds small GTFS zips for tests with libzip, in a temporary directory removed on deinit.
final class FeedFixture {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("transit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var regionDirectory: URL { directory.appendingPathComponent("region") }

    /// Writes `files` (name → CSV text) into `name`.zip and returns its URL.
    func zip(_ files: [String: String], name: String = "feed") throws -> URL {
        let source = directory.appendingPathComponent("\(name)-files")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("\(name).zip")
        var code: Int32 = 0
        guard let archive = zip_open(url.path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            throw TransitError.storage("zip_open failed \(code)")
        }
        for (file, text) in files.sorted(by: { $0.key < $1.key }) {
            let path = source.appendingPathComponent(file)
            try Data(text.utf8).write(to: path)
            guard let zsource = zip_source_file(archive, path.path, 0, -1),
                  zip_file_add(archive, file, zsource, zip_flags_t(ZIP_FL_OVERWRITE)) >= 0 else {
                zip_discard(archive)
                throw TransitError.storage("zip_file_add failed for \(file)")
            }
        }
        guard zip_close(archive) == 0 else { throw TransitError.storage("zip_close failed") }
        return url
    }

    /// Builds the timetable of a feed in memory (no SQLite).
    func timetable(_ files: [String: String], walking: any WalkingTimeEstimator = StraightLineWalking(),
                   defaultChange: Int = 60) throws -> (Timetable, GTFSImportReport) {
        var importer = GTFSImporter()
        importer.defaultMinimumTransferSeconds = defaultChange
        return try importer.buildTimetable([try zip(files)], walking: walking)
    }

    /// Imports through SQLite and loads a router, like the daemon does.
    func router(_ files: [String: String], walking: any WalkingTimeEstimator = StraightLineWalking()) throws -> (TransitRouter, GTFSImportReport) {
        let report = try GTFSImporter().importFeeds([try zip(files)], intoRegionDirectory: regionDirectory, walking: walking)
        return (try TransitRouter(regionDirectory: regionDirectory, walking: walking), report)
    }
}

/// The shared Tampere data: `$USEFULMAP_SHARED/data/tampere` or `<repo>/../shared/data/tampere`.
func tampereDirectory() -> URL {
    if let shared = ProcessInfo.processInfo.environment["USEFULMAP_SHARED"] {
        return URL(fileURLWithPath: shared).appendingPathComponent("data/tampere")
    }
    return URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/data/tampere").standardizedFileURL
}

/// A date from local wall-clock parts in a zone.
func localDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0,
               zone: String = "Europe/Helsinki") -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
}

/// A tiny feed builder: a line of stops along a meridian spaced `spacing` metres apart.
struct MiniFeed {
    var zone = "UTC"
    var stops: [(id: String, name: String, lat: Double, lon: Double)] = []
    var routes: [(id: String, short: String, type: Int)] = []
    var trips: [(route: String, service: String, id: String, headsign: String)] = []
    var stopTimes: [(trip: String, arrival: String, departure: String, stop: String, sequence: Int)] = []
    var calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,20220101,20221231\n"
    var calendarDates: String? = nil
    var frequencies: String? = nil
    var transfers: String? = nil
    /// direction_id per trip_id; trips.txt has the column only when some trip has one.
    var directions: [String: Int] = [:]
    /// zone_id per stop_id; stops.txt has the column only when some stop has one.
    var zones: [String: String] = [:]
    /// More files as they are (fare_attributes.txt, fare_rules.txt, …).
    var extraFiles: [String: String] = [:]

    var files: [String: String] {
        var files: [String: String] = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Test,http://example.org,\(zone)\n",
            "stops.txt": zones.isEmpty
                ? "stop_id,stop_name,stop_lat,stop_lon\n" + stops.map { "\($0.id),\($0.name),\($0.lat),\($0.lon)\n" }.joined()
                : "stop_id,stop_name,stop_lat,stop_lon,zone_id\n"
                    + stops.map { "\($0.id),\($0.name),\($0.lat),\($0.lon),\(zones[$0.id] ?? "")\n" }.joined(),
            "routes.txt": "route_id,route_short_name,route_long_name,route_type\n" + routes.map { "\($0.id),\($0.short),,\($0.type)\n" }.joined(),
            "trips.txt": directions.isEmpty
                ? "route_id,service_id,trip_id,trip_headsign\n" + trips.map { "\($0.route),\($0.service),\($0.id),\($0.headsign)\n" }.joined()
                : "route_id,service_id,trip_id,trip_headsign,direction_id\n"
                    + trips.map { "\($0.route),\($0.service),\($0.id),\($0.headsign),\(directions[$0.id].map(String.init) ?? "")\n" }.joined(),
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + stopTimes.map { "\($0.trip),\($0.arrival),\($0.departure),\($0.stop),\($0.sequence)\n" }.joined(),
            "calendar.txt": calendar,
        ]
        if let calendarDates { files["calendar_dates.txt"] = calendarDates }
        if let frequencies { files["frequencies.txt"] = frequencies }
        if let transfers { files["transfers.txt"] = transfers }
        files.merge(extraFiles) { _, extra in extra }
        return files
    }

    /// Adds a stop `index` km north of (60.0, 25.0) — far enough apart that no footpath joins them.
    mutating func stop(_ id: String, km: Double, east: Double = 0) {
        stops.append((id, "Stop \(id)", 60.0 + km / 111.195, 25.0 + east / 55.6))
    }

    /// Adds a trip calling at `calls` (stop, "HH:MM:SS").
    mutating func trip(_ id: String, route: String, service: String = "ALL", headsign: String = "", _ calls: [(String, String)]) {
        trips.append((route, service, id, headsign))
        for (k, call) in calls.enumerated() {
            stopTimes.append((id, call.1, call.1, call.0, k + 1))
        }
    }

    static func coordinate(km: Double, east: Double = 0) -> Coordinate {
        Coordinate(latitude: 60.0 + km / 111.195, longitude: 25.0 + east / 55.6)
    }
}
