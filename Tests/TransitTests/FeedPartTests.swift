import Foundation
import Planner
import SQLite
import TestSupport
@testable import Transit
import XCTest

/// Each feed's part (`FeedPart`), kept beside the timetable at import and merged instead of
/// parsing the feed again when its zip is the same: the timetable is the one parsing builds,
/// with every index that crosses feeds (stops, routes, services, fare zones, fare feeds,
/// stations) moved as parsing moves it.
final class FeedPartTests: XCTestCase {
    /// Three feeds whose IDs collide: a zoned Fares v1 feed with a station, transfers, shapes and
    /// a frequency-based trip; a Fares v2 feed with networks and areas; a plain one.
    private func feeds(in fixture: FeedFixture) throws -> [URL] {
        func base(_ east: Double) -> MiniFeed {
            var feed = MiniFeed()
            feed.stop("STA", km: 0, east: east)
            feed.stop("A", km: 0, east: east)
            feed.stop("B", km: 0.2, east: east)
            feed.stop("C", km: 5, east: east)
            feed.locationTypes = ["STA": 1]
            feed.parentStations = ["A": "STA", "B": "STA"]
            feed.routes = [("R1", "1", 3), ("R2", "2", 0)]
            feed.trip("T1", route: "R1", [("A", "08:00:00"), ("C", "08:10:00")])
            feed.trip("T2", route: "R2", [("C", "08:20:00"), ("B", "08:30:00")])
            return feed
        }
        var zoned = base(0)
        zoned.zones = ["A": "Z1", "B": "Z1", "C": "Z2"]
        zoned.extraFiles["fare_attributes.txt"] = "fare_id,price,currency_type,payment_method,transfers,transfer_duration\nF,2.00,EUR,0,,\n"
        zoned.extraFiles["fare_rules.txt"] = "fare_id,route_id,origin_id,destination_id,contains_id\nF,R1,Z1,Z2,\nF,,,,Z2\n"
        zoned.transfers = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nA,C,2,300\nC,C,2,120\n"
        zoned.frequencies = "trip_id,start_time,end_time,headway_secs,exact_times\nT2,08:20:00,09:00:00,600,0\n"
        zoned.tripShapes = ["T1": "SH"]
        zoned.routeColors = ["R1": "FF0000"]
        zoned.shapePoints = [("SH", 60.0, 25.0, 1), ("SH", 60.02, 25.0, 2), ("SH", 60.045, 25.0, 3)]
        var v2 = base(2)
        v2.extraFiles["fare_products.txt"] = "fare_product_id,amount,currency\nP,2.00,EUR\n"
        v2.extraFiles["fare_leg_rules.txt"] = "leg_group_id,network_id,from_area_id,fare_product_id\nL,bus,north,P\n"
        v2.extraFiles["route_networks.txt"] = "network_id,route_id\nbus,R1\n"
        v2.extraFiles["stop_areas.txt"] = "area_id,stop_id\nnorth,A\n"
        return [try fixture.zip(zoned.files, name: "zoned"), try fixture.zip(v2.files, name: "v2"),
                try fixture.zip(base(4).files, name: "plain")]
    }

    func testKeptPartsMergeIntoTheTimetableParsingBuilds() throws {
        let fixture = try FeedFixture()
        let feeds = try feeds(in: fixture)
        let parsed = try GTFSImporter().importFeeds(feeds, intoRegionDirectory: fixture.regionDirectory)
        XCTAssertEqual(parsed.feedsKept, 0)
        let parsedRows = try Self.rows(fixture.regionDirectory)
        let (built, _) = try GTFSImporter().buildTimetable(feeds, walking: StraightLineWalking())
        XCTAssertEqual(built.fares.v2?.count, 1, "the v2 feed's fares were read")

        let merged = try GTFSImporter().importFeeds(feeds, intoRegionDirectory: fixture.regionDirectory)
        XCTAssertEqual(merged.feedsKept, 3, "every feed's part merged, none parsed")
        XCTAssertEqual(try Self.rows(fixture.regionDirectory), parsedRows)
        XCTAssertEqual(merged.rowsRead, parsed.rowsRead, "the parts' reports add up as parsing did")
        XCTAssertEqual(merged.skipped, parsed.skipped)
        XCTAssertEqual(merged.servicePeriods, parsed.servicePeriods)
        XCTAssertEqual(merged.serviceSpans, parsed.serviceSpans)
    }

    func testADamagedPartOrAChangedFeedIsParsedAgain() throws {
        let fixture = try FeedFixture()
        var feeds = try feeds(in: fixture)
        _ = try GTFSImporter().importFeeds(feeds, intoRegionDirectory: fixture.regionDirectory)
        let expected = try Self.rows(fixture.regionDirectory)

        let first = FeedPart.fileURL(regionDirectory: fixture.regionDirectory, position: 1)
        let bytes = try Data(contentsOf: first)
        try bytes.prefix(bytes.count / 2).write(to: first)
        let repaired = try GTFSImporter().importFeeds(feeds, intoRegionDirectory: fixture.regionDirectory)
        XCTAssertEqual(repaired.feedsKept, 2, "the cut part is parsed again")
        XCTAssertEqual(try GTFSImporter().importFeeds(feeds, intoRegionDirectory: fixture.regionDirectory).feedsKept, 3,
                       "and written whole again")
        XCTAssertEqual(try Self.rows(fixture.regionDirectory), expected)

        var plain = MiniFeed()
        plain.stop("X", km: 0, east: 6)
        plain.stop("Y", km: 3, east: 6)
        plain.routes = [("R9", "9", 3)]
        plain.trip("T9", route: "R9", [("X", "09:00:00"), ("Y", "09:05:00")])
        feeds[2] = try fixture.zip(plain.files, name: "plain")
        let changed = try GTFSImporter().importFeeds(feeds, intoRegionDirectory: fixture.regionDirectory)
        XCTAssertEqual(changed.feedsKept, 2, "the changed feed is parsed, the others merged")
        let (built, _) = try GTFSImporter().buildTimetable(feeds, walking: StraightLineWalking())
        let stored = try TimetableStore(regionDirectory: fixture.regionDirectory).load()
        XCTAssertEqual(stored.stops, built.stops)
        XCTAssertEqual(stored.tripIDs, built.tripIDs)
        XCTAssertEqual(stored.routes, built.routes)
    }

    /// A part whose length is whole but whose indexes point outside it (a bit flipped on disk)
    /// is refused as damaged, so it is parsed again, instead of trapping the merge.
    func testAPartWhoseTripNamesAStopItDoesNotHoldIsRefusedAsDamaged() throws {
        let fixture = try FeedFixture()
        _ = try GTFSImporter().importFeeds(try feeds(in: fixture), intoRegionDirectory: fixture.regionDirectory)
        let url = FeedPart.fileURL(regionDirectory: fixture.regionDirectory, position: 1)
        var part = try FeedPart.read([UInt8](try Data(contentsOf: url)))
        part.builder.trips[0].stops[0] = Int32(part.builder.stops.count)
        try part.write(to: url)
        XCTAssertThrowsError(try FeedPart.read([UInt8](try Data(contentsOf: url)))) { error in
            XCTAssertTrue("\(error)".contains("does not hold"), "\(error)")
        }
        XCTAssertEqual(try GTFSImporter().importFeeds(try feeds(in: fixture), intoRegionDirectory: fixture.regionDirectory).feedsKept, 2,
                       "the damaged part is parsed again")
    }

    /// Every row of `transit.sqlite`'s timetable tables, its fares' JSON keys sorted.
    private static func rows(_ regionDirectory: URL) throws -> [String: [[SQLiteValue]]] {
        let db = try Database(path: TimetableStore(regionDirectory: regionDirectory).fileURL.path, mode: .readOnly)
        defer { db.close() }
        var rows: [String: [[SQLiteValue]]] = [:]
        for table in ["feeds", "stops", "routes", "services", "patterns", "trips", "footpaths", "shapes", "trip_lines"] {
            rows[table] = try db.query("SELECT * FROM \(table) ORDER BY 1, 2") { $0.values }
        }
        let fares = try db.query("SELECT value FROM meta WHERE key = 'fares'") { $0.string(0) }.first ?? ""
        let object = try JSONSerialization.jsonObject(with: Data(fares.utf8))
        rows["fares"] = [[.text(String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self))]]
        return rows
    }
}
