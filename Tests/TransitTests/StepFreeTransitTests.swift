import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Step-free (wheelchair) transit: `wheelchair_accessible` and `wheelchair_boarding` read at
/// import (a platform inheriting its station's), the step-free view searched by the same
/// engine, and each leg's accessibility.
final class StepFreeTransitTests: XCTestCase {
    /// Stops 1 km apart along a meridian: A (a platform of station S, inheriting its 1), C (2: no),
    /// B (1), D (empty, no station: unknown), P (a platform of station N, inheriting its 2).
    /// Trips A → C → B → D, 4 minutes apart: NO (wheelchair_accessible 2) at 08:00, UNK (empty) at
    /// 08:05, YES (1) at 08:20; and Q: P → B at 08:00 (1).
    static let files: [String: String] = {
        var feed = MiniFeed()
        feed.stops = [("S", "Station S", lat(0), 25.0), ("A", "Platform A", lat(0), 25.0), ("C", "Stop C", lat(1), 25.0),
                      ("B", "Stop B", lat(2), 25.0), ("D", "Stop D", lat(3), 25.0), ("N", "Station N", lat(1), 25.05),
                      ("P", "Platform P", lat(1), 25.05), ("X", "Stop X", lat(5), 25.0)]
        feed.locationTypes = ["S": 1, "A": 0, "C": 0, "B": 0, "D": 0, "N": 1, "P": 0, "X": 0]
        feed.parentStations = ["A": "S", "P": "N"]
        feed.wheelchairBoarding = ["S": 1, "C": 2, "B": 1, "N": 2, "P": 0, "X": 7]
        feed.routes = [("R", "1", 3), ("Q", "2", 3)]
        calls(&feed, "NO", 8 * 60, ["A", "C", "B", "D"], headsign: "D", wheelchair: 2)
        calls(&feed, "UNK", 8 * 60 + 5, ["A", "C", "B", "D"], headsign: "D", wheelchair: nil)
        calls(&feed, "YES", 8 * 60 + 20, ["A", "C", "B", "D"], headsign: "D", wheelchair: 1)
        calls(&feed, "QP", 8 * 60, ["P", "B"], route: "Q", headsign: "B", wheelchair: 1)
        return feed.files
    }()

    static func lat(_ km: Double) -> Double { 60.0 + km / 111.195 }
    static func point(_ km: Double, east: Double = 25.0) -> Coordinate { Coordinate(latitude: lat(km), longitude: east) }

    /// Trip `trip` of `route` calling at `stops` 4 minutes apart from `start` (minutes after
    /// midnight), with `wheelchair` as its wheelchair_accessible.
    static func calls(_ feed: inout MiniFeed, _ trip: String, _ start: Int, _ stops: [String], route: String = "R",
                      headsign: String, wheelchair: Int?) {
        feed.trip(trip, route: route, headsign: headsign, stops.enumerated().map { k, stop in
            let minutes = start + 4 * k
            return (stop, String(format: "%02d:%02d:00", minutes / 60, minutes % 60))
        })
        feed.wheelchairAccessible[trip] = wheelchair
    }

    let morning = localDate(2022, 1, 12, 7, 55, zone: "UTC")

    func leg(_ router: TransitRouter, from: Coordinate, to: Coordinate, _ access: AccessNeed) throws -> RouteLeg {
        try router.leg(from: from, to: to, timing: .departAt(morning), pace: .normal, access: access).best
    }

    func testWheelchairTakesTheAccessibleTripEvenWhenLaterAndAnyTakesTheFirst() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(Self.files)
        let any = try leg(router, from: Self.point(0), to: Self.point(2), .any)
        XCTAssertEqual(any.tripIDs, ["NO"])
        XCTAssertEqual(any.accessibility, .no, "a trip with wheelchair_accessible 2 is not accessible")
        let strict = try leg(router, from: Self.point(0), to: Self.point(2), .wheelchairStrict)
        XCTAssertEqual(strict.tripIDs, ["YES"], "strict refuses the unknown trip at 08:05 and takes the later accessible one")
        XCTAssertEqual(strict.accessibility, .stepFree, "trip 1, platform A inheriting its station's 1, stop B 1")
    }

    func testWheelchairAllowsUnknownTripsAndMarksThemUnknown() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(Self.files)
        let wheelchair = try leg(router, from: Self.point(0), to: Self.point(2), .wheelchair)
        XCTAssertEqual(wheelchair.tripIDs, ["UNK"], "an empty wheelchair_accessible is allowed by default")
        XCTAssertEqual(wheelchair.accessibility, .unknown)
    }

    func testStrictRefusesAStopWithUnknownBoarding() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(Self.files)
        // D (3 km) has no wheelchair_boarding and no station: unknown.
        XCTAssertEqual(try leg(router, from: Self.point(0), to: Self.point(3), .wheelchair).accessibility, .unknown)
        XCTAssertThrowsError(try leg(router, from: Self.point(0), to: Self.point(3), .wheelchairStrict)) { error in
            guard case .noRoute? = error as? RoutingError else { return XCTFail("\(error)") }
        }
    }

    func testAStopWhoseBoardingIsNoCanNeitherBeBoardedNorAlightedAt() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(Self.files)
        // C (1 km) says 2; P, 2.8 km east of it, inherits its station's 2 (its own 0).
        XCTAssertEqual(try leg(router, from: Self.point(1), to: Self.point(2), .any).rides.first?.boarding.stopID, "C")
        XCTAssertEqual(try leg(router, from: Self.point(1), to: Self.point(2), .any).accessibility, .no)
        for access in [AccessNeed.wheelchair, .wheelchairStrict] {
            XCTAssertThrowsError(try leg(router, from: Self.point(1), to: Self.point(2), access), "boarding at C (\(access))")
            XCTAssertThrowsError(try leg(router, from: Self.point(0), to: Self.point(1), access), "alighting at C (\(access))")
            XCTAssertThrowsError(try leg(router, from: Self.point(1, east: 25.05), to: Self.point(2), access),
                                 "boarding at P, whose station says 2 (\(access))")
        }
        // The trip itself still runs through C: A → B is unaffected.
        XCTAssertEqual(try leg(router, from: Self.point(0), to: Self.point(2), .wheelchair).rides.first?.alighting.stopID, "B")
    }

    func testImportReadsBoardingWithStationInheritanceAndCountsBadValues() throws {
        let fixture = try FeedFixture()
        let (timetable, report) = try fixture.timetable(Self.files)
        func boarding(_ id: String) -> UInt8? { timetable.stops.first { $0.id == id }?.wheelchairBoarding }
        XCTAssertEqual(boarding("A"), 1, "an empty value inherits the station's 1")
        XCTAssertEqual(boarding("P"), 2, "a 0 inherits the station's 2")
        XCTAssertEqual(boarding("C"), 2)
        XCTAssertEqual(boarding("D"), 0)
        XCTAssertEqual(boarding("X"), 0, "7 is read as unknown")
        XCTAssertEqual(report.skipped["stops.txt: wheelchair_boarding not 0, 1 or 2 (read as unknown, row kept)"], 1)
        let trips = Dictionary(uniqueKeysWithValues: zip(timetable.tripIDs, timetable.tripWheelchair))
        XCTAssertEqual(trips, ["NO": 2, "UNK": 0, "YES": 1, "QP": 1])
    }

    func testTheStepFreeViewKeepsOnlyAllowedTripsAndStops() throws {
        let fixture = try FeedFixture()
        let (timetable, _) = try fixture.timetable(Self.files)
        let view = timetable.stepFreeView(strict: false)
        XCTAssertEqual(Set(view.tripIDs), ["UNK", "YES"], "QP's pattern keeps only B: one stop is no ride")
        let c = try XCTUnwrap(timetable.stopIndexByID["C"])
        XCTAssertFalse(view.patternStops.contains(c))
        XCTAssertEqual(view.stops.count, timetable.stops.count, "stops keep their indexes")
        for e in 0..<view.footTargets.count { XCTAssertNotEqual(view.footTargets[e], c) }
        XCTAssertEqual(Int(view.footStart[Int(c) + 1] - view.footStart[Int(c)]), 0, "no footpath leaves C")
        let strict = timetable.stepFreeView(strict: true)
        XCTAssertEqual(strict.tripIDs, ["YES"])
        XCTAssertFalse(strict.patternStops.contains(try XCTUnwrap(timetable.stopIndexByID["D"])))
    }

    func testTheStepFreeViewIsBuiltOnFirstUseAndKept() throws {
        let fixture = try FeedFixture()
        let (router, _) = try fixture.router(Self.files)
        XCTAssertFalse(router.stepFree.isBuilt(.wheelchair))
        _ = try leg(router, from: Self.point(0), to: Self.point(2), .any)
        XCTAssertFalse(router.stepFree.isBuilt(.wheelchair), "a query without the need builds no view")
        _ = try leg(router, from: Self.point(0), to: Self.point(2), .wheelchair)
        let first = try XCTUnwrap(router.view(for: .wheelchair))
        XCTAssertTrue(first === router.view(for: .wheelchair), "the same view answers every later query")
        XCTAssertFalse(router.stepFree.isBuilt(.wheelchairStrict))
    }

    /// Two accessible rides joined by a change: T1 A → B (08:00–08:04), then T2 from K at 08:10.
    /// K is `changeStop`: another stop 100 m from B, or B's fellow platform in station M.
    static func changeFeed(sameStation: Bool) -> [String: String] {
        var feed = MiniFeed()
        feed.stops = [("M", "Station M", lat(1), 25.0), ("A", "Stop A", lat(0), 25.0), ("B", "Stop B", lat(1), 25.0),
                      ("K", "Stop K", lat(1.1), 25.0), ("E", "Stop E", lat(3), 25.0)]
        feed.locationTypes = ["M": 1, "A": 0, "B": 0, "K": 0, "E": 0]
        if sameStation { feed.parentStations = ["B": "M", "K": "M"] }
        feed.wheelchairBoarding = ["M": 1, "A": 1, "B": 1, "K": 1, "E": 1]
        feed.routes = [("R", "1", 3), ("S", "2", 3)]
        calls(&feed, "T1", 8 * 60, ["A", "B"], headsign: "B", wheelchair: 1)
        calls(&feed, "T2", 8 * 60 + 10, ["K", "E"], route: "S", headsign: "E", wheelchair: 1)
        return feed.files
    }

    /// "Transfers are step-free" (issue 24): a walk between two stops crosses streets the feed
    /// says nothing of, so the leg is unknown and strict does not take it; a change between
    /// platforms of one station is step-free.
    func testAChangeWalkingToAnotherStopIsUnknownAndStrictTakesOnlyChangesWithinAStation() throws {
        let streets = try FeedFixture()
        let (router, _) = try streets.router(Self.changeFeed(sameStation: false))
        let wheelchair = try leg(router, from: Self.point(0), to: Self.point(3), .wheelchair)
        XCTAssertEqual(wheelchair.tripIDs, ["T1", "T2"])
        XCTAssertEqual(wheelchair.accessibility, .unknown, "both rides say 1, but the walk from B to K is not known")
        XCTAssertThrowsError(try leg(router, from: Self.point(0), to: Self.point(3), .wheelchairStrict),
                             "strict refuses the walk between two stops")

        let station = try FeedFixture()
        let (platforms, _) = try station.router(Self.changeFeed(sameStation: true))
        let strict = try leg(platforms, from: Self.point(0), to: Self.point(3), .wheelchairStrict)
        XCTAssertEqual(strict.tripIDs, ["T1", "T2"])
        XCTAssertEqual(strict.accessibility, .stepFree, "a change between platforms of station M")
    }
}
