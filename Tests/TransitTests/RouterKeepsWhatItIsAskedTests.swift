import Foundation
import Planner
@testable import Transit
import TestSupport
import XCTest

/// A router keeps on the heap what its queries use, not what they might (issue 43: a daemon
/// with three Tampere regions kept ~1.1 MB a region for engines of paces never asked and a
/// realtime index no realtime feed used).
final class RouterKeepsWhatItIsAskedTests: XCTestCase {
    private func tampereTimetable() throws -> Timetable {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: zip.path), "shared Tampere data not found at \(zip.path)")
        return try TampereTransitTests.imported.get().router.timetable
    }

    private func coordinate(of id: String, in router: TransitRouter) throws -> Coordinate {
        try XCTUnwrap(router.stops.first { $0.id == id }, "stop \(id)").coordinate
    }

    func testAnEngineIsMadeOnlyForThePacesAskedAt() throws {
        let router = TransitRouter(timetable: try tampereTimetable(), walking: StraightLineWalking())
        XCTAssertEqual(router.enginePaces, [], "no engine before a query")
        let from = try coordinate(of: "0835", in: router), to = try coordinate(of: "0805", in: router)
        let normal = try router.leg(from: from, to: to, timing: .departAt(localDate(2022, 1, 12, 10, 30)), pace: .normal, accessRadius: 30)
        XCTAssertEqual(normal.best.rides.first?.tripID, "3096")
        XCTAssertEqual(router.enginePaces, [.normal])
        let slow = try router.leg(from: from, to: to, timing: .departAt(localDate(2022, 1, 12, 10, 30)), pace: .slow, accessRadius: 30)
        XCTAssertEqual(slow.best.rides.first?.tripID, "3096", "the slow pace's engine, made now, answers as before")
        XCTAssertEqual(router.enginePaces, [.normal, .slow])
    }

    /// Tram 3's trip 3096 from Hervannan kampus A (0835, 10:32) to Keskustori A (0805, 10:55).
    func testARideIsFoundAgainWithoutTheRealtimeIndex() throws {
        let router = TransitRouter(timetable: try tampereTimetable(), walking: StraightLineWalking())
        let leg = try router.leg(from: try coordinate(of: "0835", in: router), to: try coordinate(of: "0805", in: router),
                                 timing: .departAt(localDate(2022, 1, 12, 10, 30)), pace: .normal, accessRadius: 30).best
        let ride = try XCTUnwrap(leg.rides.first)
        let calls = router.calls(ofTripOf: ride)
        let boarding = try XCTUnwrap(calls.firstIndex { $0.stopID == "0835" }, "the trip calls at its boarding stop")
        let alighting = try XCTUnwrap(calls.lastIndex { $0.stopID == "0805" }, "the trip calls at its alighting stop")
        XCTAssertLessThan(boarding, alighting)
        XCTAssertEqual(calls[boarding].departure, localDate(2022, 1, 12, 10, 32))
        XCTAssertEqual(calls[alighting].arrival, localDate(2022, 1, 12, 10, 55))
        XCTAssertNotNil(router.tickets(for: [ride]).tickets.first, "its fare is found too")
        XCTAssertFalse(router.realtime.hasTripIndex, "finding a ride again builds no realtime index")
        router.applyRealtime([RealtimeFeed(timestamp: localDate(2022, 1, 12, 10, 0), tripUpdates: [])], now: localDate(2022, 1, 12, 10, 0))
        XCTAssertTrue(router.realtime.hasTripIndex, "realtime applied builds it")
        XCTAssertEqual(router.calls(ofTripOf: ride), calls)
    }

    func testTheTripLookupFindsEveryTripByItsID() throws {
        let timetable = try tampereTimetable()
        let lookup = TripLookup(timetable: timetable)
        let expected = Dictionary(grouping: timetable.tripIDs.indices.map(Int32.init)) { timetable.tripIDs[Int($0)] }
        for (id, trips) in expected { XCTAssertEqual(Array(lookup.trips(withID: id)), trips, "trip_id \(id)") }
        XCTAssertEqual(Array(lookup.trips(withID: "no such trip")), [])
        XCTAssertEqual(Array(lookup.trips(withID: "")), [])
        for (p, pattern) in timetable.patterns.enumerated() {
            for trip in Int(pattern.firstTrip)..<Int(pattern.firstTrip + pattern.tripCount) {
                XCTAssertEqual(lookup.tripPattern[trip], Int32(p))
            }
        }
    }
}
