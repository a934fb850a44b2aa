import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// How the import times footpaths: one batch to the estimator, a straight line for the pairs it
/// cannot answer, and both counts in the report.
final class FootpathTimingTests: XCTestCase {
    /// Answers like a street router would (a detour twice the straight line, at 5 km/h) but
    /// has "no road" at stop C; records how it was asked.
    final class StreetLikeWalking: WalkingTimeEstimator, @unchecked Sendable {
        let noRoad: Coordinate
        private let lock = NSLock()
        private var batches: [Int] = []

        init(noRoad: Coordinate) { self.noRoad = noRoad }

        var followsStreets: Bool { true }

        func walkingSeconds(from: Coordinate, to: Coordinate, pace: WalkingPace) -> Double? {
            from == noRoad || to == noRoad ? nil : from.distance(to: to) * 2 / (5 / 3.6)
        }

        func walkingSeconds(pairs: [(from: Coordinate, to: Coordinate)], pace: WalkingPace) -> [Double?] {
            lock.withLock { batches.append(pairs.count) }
            return pairs.map { walkingSeconds(from: $0.from, to: $0.to, pace: pace) }
        }

        var batchSizes: [Int] { lock.withLock { batches } }
    }

    /// A, B and C within 400 m of each other (6 directed footpaths); D 5 km away.
    private func feed() -> MiniFeed {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 0.2)
        feed.stop("C", km: 0.1, east: 0.15)
        feed.stop("D", km: 5)
        feed.routes = [("R1", "1", 3)]
        feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:02:00"), ("C", "08:04:00"), ("D", "08:12:00")])
        return feed
    }

    private func walk(_ from: String, _ to: String, in table: Timetable) throws -> Int32 {
        let s = Int(try XCTUnwrap(table.stopIndexByID[from])), t = try XCTUnwrap(table.stopIndexByID[to])
        let range = Int(table.footStart[s])..<Int(table.footStart[s + 1])
        let edge = try XCTUnwrap(range.first { table.footTargets[$0] == t }, "footpath \(from)→\(to)")
        return table.footWalkSeconds[edge]
    }

    func testStreetEstimatorIsAskedOnceForEveryFootpathAndItsTimesAreKept() throws {
        let fixture = try FeedFixture()
        let feed = feed()
        let c = try XCTUnwrap(feed.stops.first { $0.id == "C" })
        let walking = StreetLikeWalking(noRoad: Coordinate(latitude: c.lat, longitude: c.lon))
        let (table, report) = try fixture.timetable(feed.files, walking: walking)
        XCTAssertEqual(walking.batchSizes, [6], "all six candidate footpaths in one batch")
        let a = try XCTUnwrap(table.stops.first { $0.id == "A" }).coordinate
        let b = try XCTUnwrap(table.stops.first { $0.id == "B" }).coordinate
        let streets = try XCTUnwrap(walking.walkingSeconds(from: a, to: b, pace: .normal))
        XCTAssertEqual(try walk("A", "B", in: table), Int32(streets.rounded(.up)))
        XCTAssertEqual(try walk("B", "A", in: table), Int32(streets.rounded(.up)))
        XCTAssertEqual(report.footpaths, 6)
        XCTAssertEqual(report.streetTimedFootpaths, 2)
        XCTAssertEqual(report.straightLineFootpaths, 4)
        XCTAssertTrue(report.summary.contains("6 footpaths (2 timed on the streets, 4 straight-line)"), report.summary)
    }

    func testPairTheStreetsCannotAnswerFallsBackToTheStraightLine() throws {
        let fixture = try FeedFixture()
        let feed = feed()
        let c = try XCTUnwrap(feed.stops.first { $0.id == "C" })
        let (table, _) = try fixture.timetable(feed.files, walking: StreetLikeWalking(noRoad: Coordinate(latitude: c.lat, longitude: c.lon)))
        let a = try XCTUnwrap(table.stops.first { $0.id == "A" }).coordinate
        let cStop = try XCTUnwrap(table.stops.first { $0.id == "C" }).coordinate
        let straight = try XCTUnwrap(StraightLineWalking().walkingSeconds(from: a, to: cStop, pace: .normal))
        XCTAssertEqual(try walk("A", "C", in: table), Int32(straight.rounded(.up)), "no road at C: kept, timed as a straight line")
        XCTAssertEqual(try walk("C", "A", in: table), Int32(straight.rounded(.up)))
    }

    func testDefaultEstimatorCountsEveryFootpathAsStraightLine() throws {
        let fixture = try FeedFixture()
        let (_, report) = try fixture.router(feed().files)
        XCTAssertEqual(report.footpaths, 6)
        XCTAssertEqual(report.streetTimedFootpaths, 0)
        XCTAssertEqual(report.straightLineFootpaths, 6)
    }

    func testReportSavedBeforeTheFootpathCountsExistedStillReads() throws {
        let old = #"{"rowsRead":{"stops.txt":4},"skipped":{},"servicePeriods":[],"timeZone":"UTC","stops":4,"routes":1,"trips":1,"stopTimes":4,"patterns":1,"footpaths":6,"frequencyTrips":0,"seconds":0.5}"#
        let report = try JSONDecoder().decode(GTFSImportReport.self, from: Data(old.utf8))
        XCTAssertEqual(report.footpaths, 6)
        XCTAssertEqual(report.stopTimes, 4)
        XCTAssertEqual(report.rowsRead["stops.txt"], 4)
        XCTAssertEqual(report.streetTimedFootpaths, 0)
        XCTAssertEqual(report.seconds, 0.5)
        var current = report
        current.streetTimedFootpaths = 5
        let again = try JSONDecoder().decode(GTFSImportReport.self, from: JSONEncoder().encode(current))
        XCTAssertEqual(again, current)
    }

    /// Issue 43: a timetable rebuilt on the same streets takes the footpath times of the one
    /// before for stops exactly where they were (A ↔ B), asks again those the streets could not
    /// time then (C's: straight lines), and times a moved stop's footpaths anew.
    func testARebuildKeepsTheFootpathTimesOfStopsThatDidNotMoveAndAsksTheRest() throws {
        let fixture = try FeedFixture()
        let feed = feed()
        let c = try XCTUnwrap(feed.stops.first { $0.id == "C" })
        let noRoad = Coordinate(latitude: c.lat, longitude: c.lon)
        _ = try GTFSImporter().importFeeds([try fixture.zip(feed.files)], intoRegionDirectory: fixture.regionDirectory,
                                           walking: StreetLikeWalking(noRoad: noRoad))

        let streets = StreetLikeWalking(noRoad: noRoad)
        let known = KnownFootpathTimes(regionDirectory: fixture.regionDirectory, streets: streets)
        let (table, _) = try fixture.timetable(feed.files, walking: known)
        XCTAssertEqual(known.reused, 2, "A → B and B → A kept")
        XCTAssertEqual(streets.batchSizes, [4], "only C's four footpaths asked again")
        let (fresh, _) = try fixture.timetable(feed.files, walking: StreetLikeWalking(noRoad: noRoad))
        XCTAssertEqual(table.footWalkSeconds, fresh.footWalkSeconds, "the same times as timing them all again")

        var moved = feed
        moved.stops = moved.stops.map { $0.id == "B" ? ($0.id, $0.name, $0.lat + 0.0001, $0.lon) : $0 }
        let again = StreetLikeWalking(noRoad: noRoad)
        let afterMove = KnownFootpathTimes(regionDirectory: fixture.regionDirectory, streets: again)
        _ = try fixture.timetable(moved.files, walking: afterMove)
        XCTAssertEqual(afterMove.reused, 0, "B moved: its footpaths are timed anew")
        XCTAssertEqual(again.batchSizes, [6])
    }
}
