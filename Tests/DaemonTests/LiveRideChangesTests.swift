@testable import Daemon
import Foundation
import Planner
import WireProtocol
import XCTest

/// What a live refresh changed in a plan's rides, found by trip even when the refresh changed
/// the plan's number of legs.
final class LiveRideChangesTests: XCTestCase {
    let zone = TimeZone(identifier: "Europe/Helsinki")!
    /// 2022-01-12 08:00 in Helsinki.
    let eight = Date(timeIntervalSince1970: 1_641_967_200)
    let home = Place(name: "Home", coordinate: Coordinate(latitude: 61.4956, longitude: 23.7314))
    let keskustori = Place(name: "Keskustori", coordinate: Coordinate(latitude: 61.4978, longitude: 23.7610))
    let hervanta = Place(name: "Hervanta", coordinate: Coordinate(latitude: 61.4502, longitude: 23.8510))

    func bus(_ trip: String, boarding: Date, cancelled: Bool = false) -> RouteLeg {
        let ride = TransitRide(lineName: "3", vehicle: "bus", tripID: trip,
                               boarding: TransitStopCall(stopID: "0001", name: "Keskustori A", coordinate: keskustori.coordinate,
                                                         time: boarding, scheduledTime: eight),
                               alighting: TransitStopCall(stopID: "0002", name: "Hervanta", coordinate: hervanta.coordinate,
                                                          time: boarding.addingTimeInterval(1200)),
                               cancelled: cancelled)
        return RouteLeg(mode: .transit, expectedTravelTime: 1200, departure: boarding, arrival: boarding.addingTimeInterval(1200),
                        rides: [ride])
    }

    func plan(_ places: [Place], _ modes: [TravelMode], _ legs: [RouteLeg?]) throws -> RoutePlan {
        try RoutePlan(restoring: places.map { PlanNode(place: $0) }, modes: modes, legs: legs, timePreference: .departAt(eight),
                      pace: .normal, locks: [:], pins: [], pending: [:])
    }

    func testARideSixMinutesLateAfterARefreshThatAddedALegIsADelayOfItsNewSegment() throws {
        let before = try plan([home, hervanta], [.transit], [bus("T1", boarding: eight)])
        let after = try plan([home, keskustori, hervanta], [.walk, .transit],
                             [RouteLeg(mode: .walk, expectedTravelTime: 300), bus("T1", boarding: eight.addingTimeInterval(360))])
        let events = LiveRideChanges.events(planID: 7, before: before, after: after, timeZone: zone)
        XCTAssertEqual(events.count, 1, "\(events)")
        guard let event = events.first, case .delay(let ride, _, _, _, let delay, let moved) = event else {
            return XCTFail("a delay: \(events)")
        }
        XCTAssertEqual(ride.segment, 2)
        XCTAssertEqual(ride.tripID, "T1")
        XCTAssertEqual(event.fields["departure"], .string("2022-01-12T08:06:00+02:00"))
        XCTAssertEqual(delay, 360)
        XCTAssertEqual(moved, 360)
    }

    func testARideCancelledAfterARefreshThatDroppedALegIsCancelled() throws {
        let before = try plan([home, keskustori, hervanta], [.walk, .transit],
                              [RouteLeg(mode: .walk, expectedTravelTime: 300), bus("T1", boarding: eight)])
        let after = try plan([home, hervanta], [.transit], [bus("T1", boarding: eight, cancelled: true)])
        let events = LiveRideChanges.events(planID: 7, before: before, after: after, timeZone: zone)
        XCTAssertEqual(events.count, 1, "\(events)")
        guard case .cancelled(let ride)? = events.first else { return XCTFail("cancelled: \(events)") }
        XCTAssertEqual(ride.segment, 1)
    }
}
