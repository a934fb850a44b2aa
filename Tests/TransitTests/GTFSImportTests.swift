import Foundation
import Planner
import SQLite
import TestSupport
@testable import Transit
import XCTest

/// Importing feeds: counted skips, clear failures, and the previous timetable kept on failure.
final class GTFSImportTests: XCTestCase {
    func testNotAZipFailsNamingTheFile() throws {
        let fixture = try FeedFixture()
        let bogus = fixture.directory.appendingPathComponent("feed.zip")
        try Data("this is not a zip".utf8).write(to: bogus)
        XCTAssertThrowsError(try GTFSImporter().importFeeds([bogus], intoRegionDirectory: fixture.regionDirectory)) { error in
            guard let error = error as? TransitError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, "not_a_zip")
            XCTAssertTrue(error.message.contains("feed.zip"), error.message)
        }
        XCTAssertThrowsError(try GTFSImporter().importFeeds([fixture.directory.appendingPathComponent("absent.zip")],
                                                           intoRegionDirectory: fixture.regionDirectory)) { error in
            XCTAssertEqual((error as? TransitError)?.code, "feed_not_found")
        }
    }

    func testMissingRequiredFileFailsNamingItAndKeepsThePreviousTimetable() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(goodFeed().files)
        XCTAssertEqual(router.stops.count, 2)
        var broken = goodFeed()
        broken.stop("C", km: 9)
        var files = broken.files
        files["stop_times.txt"] = nil
        let zip = try fixture.zip(files, name: "broken")
        XCTAssertThrowsError(try GTFSImporter().importFeeds([zip], intoRegionDirectory: fixture.regionDirectory)) { error in
            XCTAssertEqual(error as? TransitError, .missingRequiredFile(feed: "broken.zip", file: "stop_times.txt"))
        }
        var noCalendar = goodFeed().files
        noCalendar["calendar.txt"] = nil
        XCTAssertThrowsError(try GTFSImporter().importFeeds([try fixture.zip(noCalendar, name: "nocal")],
                                                           intoRegionDirectory: fixture.regionDirectory)) { error in
            XCTAssertEqual((error as? TransitError)?.code, "missing_required_file")
        }
        XCTAssertEqual(try TransitRouter(regionDirectory: fixture.regionDirectory).stops.count, 2, "previous timetable kept")
    }

    func testMissingRequiredColumnFailsNamingFileAndColumn() throws {
        let fixture = try FeedFixture()
        var files = goodFeed().files
        files["trips.txt"] = "route_id,trip_id\nR1,T1\n"
        XCTAssertThrowsError(try GTFSImporter().importFeeds([try fixture.zip(files)], intoRegionDirectory: fixture.regionDirectory)) { error in
            XCTAssertEqual(error as? TransitError, .missingRequiredColumn(feed: "feed.zip", file: "trips.txt", column: "service_id"))
        }
    }

    func testBadRowsAreSkippedAndCountedByReason() throws {
        var feed = goodFeed()
        feed.stops.append(("BAD", "No coordinates", 0, 0))
        feed.trips.append(("NOPE", "ALL", "T-unknown-route", ""))
        feed.trips.append(("R1", "NEVER", "T-unknown-service", ""))
        feed.trip("T-short", route: "R1", [("A", "09:00:00")])
        feed.trip("T-backwards", route: "R1", [("A", "09:00:00"), ("B", "08:50:00")])
        feed.trip("T-dup", route: "R1", [("A", "09:00:00"), ("B", "09:10:00")])
        feed.stopTimes.append(("T-dup", "09:20:00", "09:20:00", "B", 2))
        feed.stopTimes.append(("GHOST", "09:00:00", "09:00:00", "A", 1))
        feed.stopTimes.append(("T1", "08:20:00", "08:20:00", "NOWHERE", 3))
        feed.stopTimes.append(("T1", "8h30", "08:30:00", "A", 4))
        feed.frequencies = "trip_id,start_time,end_time,headway_secs\nGHOST,08:00:00,09:00:00,600\nT1,08:00:00,09:00:00,0\n"
        feed.transfers = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nA,NOWHERE,0,\nA,A,2,\n"
        let fixture = try FeedFixture()
        let (router, report) = try fixture.router(feed.files)
        XCTAssertEqual(report.skipped["stops.txt: missing or invalid stop_lat/stop_lon"], 1)
        XCTAssertEqual(report.skipped["trips.txt: unknown route_id"], 1)
        XCTAssertEqual(report.skipped["trips.txt: unknown service_id"], 1)
        XCTAssertEqual(report.skipped["trips: fewer than two stop_times"], 1)
        XCTAssertEqual(report.skipped["trips: times go backwards"], 1)
        XCTAssertEqual(report.skipped["trips: duplicate stop_sequence"], 1)
        XCTAssertEqual(report.skipped["stop_times.txt: unknown or skipped trip_id"], 1)
        XCTAssertEqual(report.skipped["stop_times.txt: unknown stop_id"], 1)
        XCTAssertEqual(report.skipped["stop_times.txt: malformed time"], 1)
        XCTAssertEqual(report.skipped["frequencies.txt: unknown trip_id"], 1)
        XCTAssertEqual(report.skipped["frequencies.txt: headway_secs not positive"], 1)
        XCTAssertEqual(report.skipped["transfers.txt: unknown or non-routable stop_id"], 1)
        XCTAssertEqual(report.skipped["transfers.txt: transfer_type 2 without min_transfer_time"], 1)
        XCTAssertEqual(report.trips, 1)
        XCTAssertEqual(report.rowsRead["stop_times.txt"], feed.stopTimes.count)
        XCTAssertTrue(report.summary.contains("skipped 1: trips: times go backwards"), report.summary)
        XCTAssertEqual(router.stops.map(\.id), ["A", "B"])
        let saved = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: fixture.regionDirectory))
        XCTAssertEqual(saved.skipped, report.skipped)
        XCTAssertEqual(saved.rowsRead, report.rowsRead)
        XCTAssertEqual(saved.servicePeriods, report.servicePeriods)
    }

    func testParentStationsAreNotRoutableButLinkTheirPlatformsByFootpath() throws {
        var feed = goodFeed()
        // Two platforms 600 m apart (beyond the 400 m radius) of one station.
        feed.stops = [("STA", "Central", 60.0, 25.0), ("A", "Central 1", 60.0, 25.0), ("B", "Far", 60.04496, 25.0),
                      ("P2", "Central 2", 60.0054, 25.0), ("E1", "Entrance", 60.0, 25.0001)]
        feed.locationTypes = ["STA": 1, "A": 0, "P2": 0, "E1": 2]
        feed.parentStations = ["A": "STA", "P2": "STA", "E1": "STA"]
        let fixture = try FeedFixture()
        let (timetable, report) = try fixture.timetable(feed.files)
        XCTAssertEqual(timetable.stops.map(\.id), ["A", "B", "P2"])
        XCTAssertEqual(timetable.stops.first?.parentStationID, "STA")
        XCTAssertEqual(report.skipped["stops.txt: entrance, node or boarding area (not routable)"], 1)
        let a = Int(timetable.stopIndexByID["A"] ?? -1), p2 = timetable.stopIndexByID["P2"] ?? -1
        let targets = timetable.footTargets[Int(timetable.footStart[a])..<Int(timetable.footStart[a + 1])]
        XCTAssertTrue(targets.contains(p2), "platforms of one station are joined even beyond the radius")
    }

    /// IDs are only unique inside a feed: two feeds that both call a station "STA" have two
    /// stations, and their platforms, 5 km apart, are not joined by a footpath.
    func testStationsOfTwoFeedsWithTheSameIDAreNotJoined() throws {
        func feed(_ name: String, latitude: Double) -> [String: String] {
            var feed = goodFeed()
            feed.stops = [("STA", name, latitude, 25.0), ("A", "\(name) 1", latitude, 25.0), ("B", "\(name) 2", latitude + 0.0054, 25.0)]
            feed.locationTypes = ["STA": 1, "A": 0, "B": 0]
            feed.parentStations = ["A": "STA", "B": "STA"]
            return feed.files
        }
        let fixture = try FeedFixture()
        var importer = GTFSImporter()
        importer.defaultMinimumTransferSeconds = 60
        let (timetable, _) = try importer.buildTimetable([try fixture.zip(feed("North", latitude: 60.045), name: "north"),
                                                          try fixture.zip(feed("South", latitude: 60.0), name: "south")],
                                                         walking: StraightLineWalking())
        XCTAssertEqual(timetable.stops.map(\.name), ["North 1", "North 2", "South 1", "South 2"])
        func footpaths(_ stop: Int) -> [String] {
            timetable.footTargets[Int(timetable.footStart[stop])..<Int(timetable.footStart[stop + 1])].map { timetable.stops[Int($0)].name }
        }
        XCTAssertEqual(footpaths(0), ["North 2"], "the platforms of one station are joined, beyond the radius")
        XCTAssertEqual(footpaths(2), ["South 2"], "and never to the other feed's station of the same ID")
    }

    func testFeedsWithDifferentTimeZonesAreRefused() throws {
        let fixture = try FeedFixture()
        var other = goodFeed()
        other.zone = "Europe/Helsinki"
        let first = try fixture.zip(goodFeed().files, name: "utc"), second = try fixture.zip(other.files, name: "helsinki")
        XCTAssertThrowsError(try GTFSImporter().importFeeds([first, second], intoRegionDirectory: fixture.regionDirectory)) { error in
            XCTAssertEqual((error as? TransitError)?.code, "mixed_time_zones")
        }
        var unknown = goodFeed()
        unknown.zone = "Mars/Olympus"
        XCTAssertThrowsError(try GTFSImporter().importFeeds([try fixture.zip(unknown.files, name: "mars")],
                                                           intoRegionDirectory: fixture.regionDirectory)) { error in
            XCTAssertEqual((error as? TransitError)?.code, "unknown_time_zone")
        }
    }

    func testMissingTimesBetweenTimepointsAreInterpolated() throws {
        var feed = goodFeed()
        feed.stop("M", km: 2.5)
        feed.trips = [("R1", "ALL", "T1", "")]
        feed.stopTimes = [("T1", "08:00:00", "08:00:00", "A", 1), ("T1", "", "", "M", 2), ("T1", "08:10:00", "08:10:00", "B", 3)]
        let fixture = try FeedFixture()
        let (timetable, _) = try fixture.timetable(feed.files)
        let expected: [Int32] = [28_800, 29_100, 29_400]   // 08:00, 08:05 (interpolated), 08:10
        XCTAssertEqual(timetable.arrivals, expected)
    }

    func testStopTimesInAnyRowOrderGiveTheSameTimetable() throws {
        var feed = goodFeed()
        feed.stop("C", km: 9)
        feed.trip("T2", route: "R1", [("A", "09:00:00"), ("B", "09:10:00"), ("C", "09:20:00")])
        feed.trip("T3", route: "R1", [("A", "09:30:00"), ("B", "09:40:00"), ("C", "09:50:00")])
        let fixture = try FeedFixture()
        let (ordered, _) = try fixture.timetable(feed.files)
        feed.stopTimes.reverse()
        let (shuffled, _) = try fixture.timetable(feed.files)
        XCTAssertEqual(shuffled.tripIDs, ordered.tripIDs)
        XCTAssertEqual(shuffled.arrivals, ordered.arrivals)
        XCTAssertEqual(shuffled.patternStops, ordered.patternStops)
        XCTAssertEqual(ordered.patterns.count, 2, "A-B and A-B-C are different patterns")
    }

    func testTwoFeedsInOneTimeZoneAreMergedWithBothServicePeriods() throws {
        let fixture = try FeedFixture()
        var second = MiniFeed()
        second.calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,20230101,20230630\n"
        second.stop("X", km: 20)
        second.stop("Y", km: 25)
        second.routes = [("R1", "9", 2)]
        second.trip("T1", route: "R1", [("X", "08:00:00"), ("Y", "08:10:00")])
        let report = try GTFSImporter().importFeeds([try fixture.zip(goodFeed().files, name: "city"), try fixture.zip(second.files, name: "rail")],
                                                    intoRegionDirectory: fixture.regionDirectory)
        XCTAssertEqual(report.servicePeriods.map(\.summary), ["city.zip: 2022-01-01 – 2022-12-31", "rail.zip: 2023-01-01 – 2023-06-30"])
        XCTAssertEqual(report.trips, 2)
        let router = try TransitRouter(regionDirectory: fixture.regionDirectory)
        let ride = try router.leg(from: MiniFeed.coordinate(km: 20), to: MiniFeed.coordinate(km: 25),
                                  timing: .departAt(localDate(2023, 3, 1, 7, 50, zone: "UTC")), pace: .normal, accessRadius: 100)
        XCTAssertEqual(ride.best.rides.first?.vehicle, "rail")
        XCTAssertEqual(ride.best.rides.first?.lineName, "9")
    }

    func testFeedZippedInsideAFolderIsRead() throws {
        let fixture = try FeedFixture()
        let files = Dictionary(uniqueKeysWithValues: goodFeed().files.map { ("gtfs/\($0.key)", $0.value) })
        let source = fixture.directory.appendingPathComponent("feed-files/gtfs")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let report = try GTFSImporter().importFeeds([try fixture.zip(files)], intoRegionDirectory: fixture.regionDirectory)
        XCTAssertEqual(report.trips, 1)
    }

    func testLoadingARegionWithoutTimetableSaysSo() throws {
        let fixture = try FeedFixture()
        XCTAssertThrowsError(try TransitRouter(regionDirectory: fixture.regionDirectory)) { error in
            XCTAssertEqual((error as? TransitError)?.code, "timetable_missing")
        }
    }

    func testStoredTimetableRoundTripsThroughSQLite() throws {
        var feed = goodFeed()
        feed.stop("C", km: 5.1)
        feed.trip("T2", route: "R1", [("B", "08:20:00"), ("A", "08:30:00")])
        feed.transfers = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nB,B,3,\nB,C,2,240\n"
        let fixture = try FeedFixture()
        let (built, _) = try fixture.timetable(feed.files)
        _ = try fixture.router(feed.files)
        let loaded = try TimetableStore(regionDirectory: fixture.regionDirectory).load()
        XCTAssertEqual(loaded.stops, built.stops)
        XCTAssertEqual(loaded.routes, built.routes)
        XCTAssertEqual(loaded.services, built.services)
        XCTAssertEqual(loaded.patterns, built.patterns)
        XCTAssertEqual(loaded.patternStops, built.patternStops)
        XCTAssertEqual(loaded.patternFlags, built.patternFlags)
        XCTAssertEqual(loaded.tripIDs, built.tripIDs)
        XCTAssertEqual(loaded.arrivals, built.arrivals)
        XCTAssertEqual(loaded.departures, built.departures)
        XCTAssertEqual(loaded.changeSeconds, built.changeSeconds)
        XCTAssertEqual(loaded.footStart, built.footStart)
        XCTAssertEqual(loaded.footTargets, built.footTargets)
        XCTAssertEqual(loaded.footMinimumSeconds, built.footMinimumSeconds)
        XCTAssertEqual(loaded.feeds, built.feeds)
        let b = Int(built.stopIndexByID["B"] ?? -1)
        XCTAssertEqual(built.changeSeconds[b], -1, "transfer_type 3 forbids changing at B")
        XCTAssertEqual(built.footMinimumSeconds[Int(built.footStart[b])], 240)
    }

    func testHeadwaysOfFrequencyRunsRoundTripThroughSQLite() throws {
        var feed = goodFeed()
        feed.trip("F", route: "R1", [("A", "10:00:00"), ("B", "10:07:00")])
        feed.trip("G", route: "R1", [("B", "10:00:00"), ("A", "10:05:00")])
        feed.frequencies = "trip_id,start_time,end_time,headway_secs,exact_times\nF,08:00:00,09:00:00,600,1\nG,08:00:00,09:00:00,900,0\n"
        let fixture = try FeedFixture()
        let (built, _) = try fixture.timetable(feed.files)
        _ = try fixture.router(feed.files)
        let loaded = try TimetableStore(regionDirectory: fixture.regionDirectory).load()
        XCTAssertEqual(loaded.tripIDs, built.tripIDs)
        XCTAssertEqual(loaded.tripHeadways, built.tripHeadways)
        let headways = Dictionary(uniqueKeysWithValues: zip(loaded.tripIDs, loaded.tripHeadways))
        XCTAssertEqual(headways["T1"], 0)
        XCTAssertEqual(headways["F@08:10:00"], 0)
        XCTAssertEqual(headways["G@08:15:00"], 900)
        XCTAssertEqual(headways.values.filter { $0 == 900 }.count, 4)
    }

    /// A region imported before headways were stored still loads, every trip scheduled.
    func testTimetableOfSchemaVersionOneLoadsWithNoHeadways() throws {
        var feed = goodFeed()
        feed.trip("G", route: "R1", [("B", "10:00:00"), ("A", "10:05:00")])
        feed.frequencies = "trip_id,start_time,end_time,headway_secs\nG,08:00:00,09:00:00,900\n"
        let fixture = try FeedFixture()
        _ = try fixture.router(feed.files)
        let path = fixture.regionDirectory.appendingPathComponent(TimetableStore.fileName).path
        let db = try Database(path: path)
        try db.execute("ALTER TABLE trips DROP COLUMN headway_seconds; UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        db.close()
        let loaded = try TimetableStore(regionDirectory: fixture.regionDirectory).load()
        XCTAssertEqual(loaded.tripIDs.count, 5)
        XCTAssertEqual(loaded.tripHeadways, [0, 0, 0, 0, 0])
    }

    func testTimetableOfAnotherSchemaVersionAsksForReimport() throws {
        let fixture = try FeedFixture()
        _ = try fixture.router(goodFeed().files)
        let path = fixture.regionDirectory.appendingPathComponent(TimetableStore.fileName).path
        let db = try Database(path: path)
        try db.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
        XCTAssertThrowsError(try TransitRouter(regionDirectory: fixture.regionDirectory)) { error in
            XCTAssertEqual(error as? TransitError, .timetableSchemaMismatch(found: 999, expected: TimetableStore.schemaVersion))
        }
    }
}
