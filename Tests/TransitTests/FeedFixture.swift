import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Builds small GTFS zips (`GTFSZip`) in a temporary directory removed on deinit, and imports them.
final class FeedFixture {
    private let temporary: TemporaryDirectory
    var directory: URL { temporary.url }

    init() throws { temporary = try TemporaryDirectory("transit-tests") }

    deinit { temporary.remove() }

    var regionDirectory: URL { directory.appendingPathComponent("region") }

    /// Writes `files` (name → CSV text) into `name`.zip and returns its URL.
    func zip(_ files: [String: String], name: String = "feed") throws -> URL {
        let url = directory.appendingPathComponent("\(name).zip")
        try GTFSZip.write(files, to: url)
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

/// A feed that imports cleanly: stops A and B 5 km apart, one trip of route R1 from A at 08:00 to
/// B at 08:10, every day of 2022; tests change one thing in it.
func goodFeed() -> MiniFeed {
    var feed = MiniFeed()
    feed.stop("A", km: 0)
    feed.stop("B", km: 5)
    feed.routes = [("R1", "1", 3)]
    feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00")])
    return feed
}

/// The shared Tampere data (`SharedData.tampere`).
func tampereDirectory() -> URL { SharedData.tampere }

/// A date from local wall-clock parts in a zone.
func localDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0,
               zone: String = "Europe/Helsinki") -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
}
