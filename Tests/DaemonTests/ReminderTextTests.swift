@testable import Daemon
import Foundation
import Planner
import XCTest

/// What a plan's notifications call its destination.
final class ReminderTextTests: XCTestCase {
    let eight = Date(timeIntervalSince1970: 1_641_967_200)
    let zone = TimeZone(identifier: "Europe/Helsinki")!
    let keskustori = Place(name: "Keskustori", coordinate: Coordinate(latitude: 61.4978, longitude: 23.7610))
    let tampereTalo = Place(name: "Tampere-talo", coordinate: Coordinate(latitude: 61.4965, longitude: 23.7818))
    let ratina = Place(name: "Ratina", coordinate: Coordinate(latitude: 61.4918, longitude: 23.7639))

    func plan(_ places: [Place], inferred: Set<Int> = []) throws -> RoutePlan {
        try RoutePlan(restoring: places.enumerated().map { PlanNode(place: $1, isInferred: inferred.contains($0)) },
                      modes: Array(repeating: .walk, count: places.count - 1), legs: Array(repeating: nil, count: places.count - 1),
                      timePreference: .departAt(eight), pace: .normal, locks: [:], pins: [], pending: [:])
    }

    /// Issue 41: a round trip from Keskustori said "Leave at 10:32 for Keskustori".
    func testARoundTripIsLeftForItsFirstOtherPlaceAndBack() throws {
        let round = try plan([keskustori, tampereTalo, ratina, keskustori])
        XCTAssertEqual(ReminderText.leaveTitle(round, leaveAt: eight, zone: zone), "Leave at 08:00 for Tampere-talo and back")
        XCTAssertEqual(ReminderText.destination(of: try plan([keskustori, ratina, keskustori], inferred: [1])), "Keskustori",
                       "an inferred stop is not a place the traveller chose to go to")
    }

    func testATripElsewhereIsLeftForItsLastPlace() throws {
        XCTAssertEqual(ReminderText.leaveTitle(try plan([keskustori, tampereTalo, ratina]), leaveAt: eight, zone: zone),
                       "Leave at 08:00 for Ratina")
    }

    /// Issue 41: a ride 75 min late was "late by 75 min"; delays read as every duration does.
    func testADelayOfAnHourOrMoreReadsInHoursAndMinutes() {
        XCTAssertEqual(ReminderText.delayTitle(line: "3", delaySeconds: 75 * 60), "Line 3 late by 1 h 15 min")
        XCTAssertEqual(ReminderText.delayTitle(line: "3", delaySeconds: 62 * 60 + 40), "Line 3 late by 1 h 03 min", "rounded to the minute")
        XCTAssertEqual(ReminderText.delayTitle(line: "3", delaySeconds: 6 * 60), "Line 3 late by 6 min")
        XCTAssertEqual(ReminderText.delayTitle(line: "8", delaySeconds: -120), "Line 8 early by 2 min")
    }
}
