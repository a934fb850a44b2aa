import Foundation
import Planner
@testable import Transit
import TestSupport
import XCTest

/// The realtime overlay on the real Nysse feed on Wednesday 2022-01-12 (own import: the overlay
/// changes the router's answers, so it does not share `TampereTransitTests`' router).
final class RealtimeOverlayTampereTests: XCTestCase {
    static let router: Result<TransitRouter, Error> = Result {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        let temporary = try TemporaryDirectory("tampere-realtime")
        defer { temporary.remove() }
        let region = temporary.url.appendingPathComponent("region")
        _ = try GTFSImporter().importFeeds([zip], intoRegionDirectory: region)
        return try TransitRouter(regionDirectory: region)
    }

    private func tampere() throws -> TransitRouter {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: zip.path), "shared Tampere data not found at \(zip.path)")
        let router = try Self.router.get()
        router.applyRealtime([], now: localDate(2022, 1, 12, 10, 0))
        return router
    }

    private func stop(_ id: String, in router: TransitRouter) throws -> Coordinate {
        try XCTUnwrap(router.stops.first { $0.id == id }, "stop \(id)").coordinate
    }

    private func tram3(_ router: TransitRouter) throws -> TransitRide {
        let leg = try router.leg(from: try stop("0835", in: router), to: try stop("0805", in: router),
                                 timing: .departAt(localDate(2022, 1, 12, 10, 30)), pace: .normal, accessRadius: 30)
        return try XCTUnwrap(leg.best.rides.first)
    }

    /// stop_times.txt, trip 3096: `3096,10:32:00,…,0835,3` … `3096,10:55:00,…,0805,17`: Keskustori A is stop_sequence 17.
    func testTram3SixMinutesLateAtItsStopSequenceShowsPlusSix() throws {
        let router = try tampere()
        let late = RealtimeTripUpdate(entityID: "1", trip: RealtimeTripDescriptor(tripID: "3096", startDate: "20220112"),
                                      stopTimeUpdates: [RealtimeStopTimeUpdate(stopSequence: 17, arrival: RealtimeStopTimeEvent(delay: 360))])
        let report = router.applyRealtime([RealtimeFeed(timestamp: localDate(2022, 1, 12, 10, 0), tripUpdates: [late])],
                                          now: localDate(2022, 1, 12, 10, 0))
        XCTAssertEqual(report.feeds.first?.tripUpdatesApplied, 1)
        let ride = try tram3(router)
        XCTAssertEqual(ride.tripID, "3096")
        XCTAssertEqual(ride.boarding.delaySeconds, 0, "the update starts at Keskustori")
        XCTAssertEqual(ride.alighting.delaySeconds, 360)
        XCTAssertEqual(ride.alighting.time, localDate(2022, 1, 12, 11, 1))
    }

    func testTram3CancelledGivesTheNextTram() throws {
        let router = try tampere()
        let cancelled = RealtimeTripUpdate(entityID: "1", trip: RealtimeTripDescriptor(tripID: "3096", relationship: .canceled))
        router.applyRealtime([RealtimeFeed(timestamp: localDate(2022, 1, 12, 10, 0), tripUpdates: [cancelled])],
                             now: localDate(2022, 1, 12, 10, 0))
        let ride = try tram3(router)
        XCTAssertNotEqual(ride.tripID, "3096")
        XCTAssertGreaterThan(ride.boarding.time, localDate(2022, 1, 12, 10, 32))
    }

    func testAFullDayOverlayAppliesEveryRunningTripInLessThanTwentyMegabytes() throws {
        let router = try tampere()
        let now = localDate(2022, 1, 12, 7, 0)
        let trips = router.runningTripIDs(onServiceDayOf: now)
        let feed = RealtimeFeed(timestamp: now, tripUpdates: trips.enumerated().map { k, trip in
            RealtimeTripUpdate(entityID: "\(k)", trip: RealtimeTripDescriptor(tripID: trip, startDate: "20220112"), delay: (k % 7) * 60)
        })
        let report = router.applyRealtime([feed], now: now)
        XCTAssertEqual(report.feeds.first?.tripUpdatesApplied, trips.count)
        XCTAssertEqual(report.feeds.first?.tripUpdatesRefused, [:])
        XCTAssertLessThan(report.overlayMemoryBytes, 20 * 1_048_576)
        let overlay = try XCTUnwrap(router.realtime.snapshot)
        XCTAssertLessThan(overlay.patterns.patterns.count, 2 * router.timetable.patterns.count,
                          "live runs share patterns instead of one each")
        XCTAssertTrue(try tram3(router).alighting.isRealtime)
    }

    /// Every run of the day replaced by a live run "on time" must route exactly as the timetable:
    /// same departure, arrival and number of rides, in both directions (which trip wins a tie
    /// may differ), and every ride of the day is then live.
    func testAnOnTimeFullDayOverlayRoutesLikeTheTimetable() throws {
        let router = try tampere()
        let now = localDate(2022, 1, 12, 7, 0)
        var g = SeededRandom(seed: 21)
        var queries: [(Coordinate, Coordinate, LegTiming)] = []
        for _ in 0..<40 {
            let from = Coordinate(latitude: Double.random(in: 61.45...61.52, using: &g), longitude: Double.random(in: 23.65...23.88, using: &g))
            let to = Coordinate(latitude: Double.random(in: 61.45...61.52, using: &g), longitude: Double.random(in: 23.65...23.88, using: &g))
            let at = localDate(2022, 1, 12, Int.random(in: 7...10, using: &g), Int.random(in: 0...59, using: &g))
            queries.append((from, to, Bool.random(using: &g) ? .departAt(at) : .arriveBy(at.addingTimeInterval(3600))))
        }
        func answers() -> [String] {
            queries.map { from, to, timing in
                guard let best = try? router.leg(from: from, to: to, timing: timing, pace: .normal).best else { return "none" }
                return "\(best.departure?.timeIntervalSince1970 ?? 0) \(best.arrival?.timeIntervalSince1970 ?? 0) \(best.rides.count)"
            }
        }
        let timetable = answers()
        let trips = router.runningTripIDs(onServiceDayOf: now)
        router.applyRealtime([RealtimeFeed(timestamp: now, tripUpdates: trips.enumerated().map { k, trip in
            RealtimeTripUpdate(entityID: "\(k)", trip: RealtimeTripDescriptor(tripID: trip, startDate: "20220112"), delay: 0)
        })], now: now)
        XCTAssertEqual(answers(), timetable)
        XCTAssertGreaterThan(timetable.filter { $0 != "none" }.count, 20)
        let ride = try tram3(router)
        XCTAssertTrue(ride.boarding.isRealtime)
        XCTAssertEqual(ride.boarding.delaySeconds, 0)
    }
}
