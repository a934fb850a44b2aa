import Foundation
import PlanCalendar
import Planner
import XCTest

/// `CalendarText` read back with libical: its VTIMEZONEs (built from tzdata's transitions) put
/// every event at its instant, in winter and summer time and in zones without daylight saving.
final class CalendarTextTests: XCTestCase {
    func event(_ uid: String, _ iso: String, zone: String) throws -> CalendarEvent {
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: iso))
        return CalendarEvent(uid: uid, sequence: 3, summary: "Walk to Tori", location: "Asema", start: start,
                             end: start.addingTimeInterval(754), timeZone: try XCTUnwrap(TimeZone(identifier: zone)), url: nil)
    }

    func testEventsInWinterAndSummerTimeAndInSeveralZonesReadBackAtTheirInstants() throws {
        let events = [
            try event("winter", "2022-01-12T06:04:00Z", zone: "Europe/Helsinki"),
            try event("summer", "2022-07-01T05:04:00Z", zone: "Europe/Helsinki"),
            try event("after-the-change", "2022-10-30T01:30:00Z", zone: "Europe/Helsinki"),  // 03:30 EET, an hour after the change
            try event("tokyo", "2023-03-01T23:00:00Z", zone: "Asia/Tokyo"),
            try event("new-york", "2022-03-13T07:30:00Z", zone: "America/New_York"),  // 03:30 EDT, just after the change
        ]
        let reading = try ICalendarReading(CalendarText.ics(events, stamp: events[0].start))
        XCTAssertEqual(Set(reading.timeZones), ["Europe/Helsinki", "Asia/Tokyo", "America/New_York"], "one VTIMEZONE per zone")
        XCTAssertEqual(reading.events.map(\.uid), events.map(\.uid))
        XCTAssertEqual(reading.events.map(\.start), events.map(\.start))
        XCTAssertEqual(reading.events.map(\.end), events.map(\.end))
        XCTAssertEqual(reading.events.map(\.tzid), events.map(\.timeZone.identifier))
        XCTAssertEqual(reading.events.map(\.sequence), [3, 3, 3, 3, 3])
    }

    func testTheTimeZonesNameTheirTimesAsTzdataDoesNotAsOffsets() throws {
        let events = [try event("winter", "2022-01-12T06:04:00Z", zone: "Europe/Helsinki"),
                      try event("new-york", "2022-03-13T07:30:00Z", zone: "America/New_York"),
                      try event("tokyo", "2023-03-01T23:00:00Z", zone: "Asia/Tokyo")]
        let text = CalendarText.ics(events, stamp: events[0].start)
        for name in ["EET", "EEST", "EST", "EDT", "JST"] {
            XCTAssertTrue(text.contains("TZNAME:\(name)\r\n"), "TZNAME:\(name) in \(text)")
        }
        XCTAssertFalse(text.contains("TZNAME:GMT"), text)
    }

    func testACalendarWithoutEventsIsStillAValidCalendar() throws {
        let reading = try ICalendarReading(CalendarText.ics([], stamp: Date(timeIntervalSince1970: 0)))
        XCTAssertTrue(reading.events.isEmpty)
        XCTAssertTrue(reading.timeZones.isEmpty)
    }

    func testTwoLegsBetweenTheSamePlacesHaveUIDsOfTheirOwn() throws {
        let a = Place(name: "A", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))
        let b = Place(name: "B", coordinate: Coordinate(latitude: 61.50, longitude: 23.76))
        let start = Date(timeIntervalSince1970: 1_641_974_400)
        // A → B → A → B on foot, 10 minutes a walk.
        let plan = try RoutePlan(restoring: [a, b, a, b].map { PlanNode(place: $0) }, modes: [.walk, .walk, .walk],
                                 legs: (0..<3).map { _ in RouteLeg(mode: .walk, expectedTravelTime: 600, distance: 1_100) },
                                 timePreference: .departAt(start), pace: .normal, locks: [:], pins: [], pending: [:])
        let identity = PlanCalendarEvents.Identity(id: 7, generation: 1, source: "s", timeZone: TimeZone(identifier: "UTC")!)
        let events = PlanCalendarEvents.events(of: plan, identity, now: start)
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(Set(events.map(\.uid)).count, 3, "one UID per leg: \(events.map(\.uid))")
        XCTAssertTrue(events[0].uid.hasSuffix("_23.7600000-s@usefulmap"), "the first keeps the UID it had: \(events[0].uid)")
        XCTAssertTrue(events[2].uid.hasSuffix("_23.7600000-2-s@usefulmap"), events[2].uid)
    }
}
