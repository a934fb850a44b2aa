import Foundation
import TestSupport
@testable import Transit
import XCTest

/// The import report says when each feed's service starts and ends on any day: the first
/// departure and the last arrival of the trips of that service day, runs of `frequencies.txt`
/// and trips past midnight included.
final class FeedServiceHoursTests: XCTestCase {
    func testServiceHoursAreTheFirstDepartureAndLastArrivalOfTheTripsOfThatServiceDay() throws {
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.routes = [("R1", "1", 3)]
        feed.calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "WEEK,1,1,1,1,1,0,0,20220101,20220131\nSAT,0,0,0,0,0,1,0,20220101,20220131\n"
        feed.trip("T-early", route: "R1", service: "WEEK", [("A", "06:00:00"), ("B", "06:10:00")])
        feed.trip("T-night", route: "R1", service: "WEEK", [("A", "24:30:00"), ("B", "24:40:00")])
        feed.trip("F", route: "R1", service: "SAT", [("A", "09:00:00"), ("B", "09:10:00")])
        feed.frequencies = "trip_id,start_time,end_time,headway_secs\nF,09:00:00,12:00:00,1800\n"
        let fixture = try FeedFixture()
        let (_, imported) = try fixture.router(feed.files)
        let saved = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: fixture.regionDirectory))
        XCTAssertEqual(saved.serviceSpans, imported.serviceSpans, "kept with the timetable")

        let wednesday = try XCTUnwrap(saved.serviceHours(ofFeed: "feed.zip", onDayOf: localDate(2022, 1, 12, 15, 0)))
        XCTAssertEqual(wednesday.day, "2022-01-12")
        XCTAssertEqual(wednesday.firstDeparture, localDate(2022, 1, 12, 6, 0))
        XCTAssertEqual(wednesday.lastArrival, localDate(2022, 1, 13, 0, 40), "the night trip belongs to Wednesday's service")
        let saturday = try XCTUnwrap(saved.serviceHours(ofFeed: "feed.zip", onDayOf: localDate(2022, 1, 15, 8, 0)))
        XCTAssertEqual(saturday.firstDeparture, localDate(2022, 1, 15, 9, 0))
        XCTAssertEqual(saturday.lastArrival, localDate(2022, 1, 15, 11, 40), "the last run of the frequency, 11:30")
        XCTAssertNil(saved.serviceHours(ofFeed: "feed.zip", onDayOf: localDate(2022, 1, 16, 12, 0)), "nothing runs on Sunday")
        XCTAssertNil(saved.serviceHours(ofFeed: "feed.zip", onDayOf: localDate(2022, 2, 2, 12, 0)), "nor after the period")
        XCTAssertNil(saved.serviceHours(ofFeed: "other.zip", onDayOf: localDate(2022, 1, 12, 12, 0)))
        XCTAssertEqual(saved.serviceDay(of: localDate(2022, 1, 16, 0, 30)), "2022-01-16", "the local date")
    }
}
