import Foundation
import TestSupport
@testable import Transit
import XCTest

/// A feed covers the service days from the first to the last day any of its trips runs, from
/// `calendar.txt` and `calendar_dates.txt`, cut to `feed_info.txt`'s validity; days left and
/// the note for a day outside every feed are counted per service day in the region's zone.
final class FeedCoverageTests: XCTestCase {
    private func feed(calendar: String? = MiniFeed().calendar, calendarDates: String? = nil,
                      feedInfo: String? = nil) -> [String: String] {
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.routes = [("R1", "1", 3)]
        feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00")])
        feed.calendarDates = calendarDates
        var files = feed.files
        files["calendar.txt"] = calendar
        files["feed_info.txt"] = feedInfo
        return files
    }

    private func period(_ files: [String: String]) throws -> (FeedServicePeriod, GTFSImportReport) {
        let (timetable, report) = try FeedFixture().timetable(files)
        XCTAssertEqual(timetable.feeds, report.servicePeriods, "the router refuses the days the report says are not covered")
        return (try XCTUnwrap(report.servicePeriods.first, "\(report.summary)"), report)
    }

    private static let calendarHeader = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"

    func testCoverageEndsOnTheLastDayAServiceRunsAfterCalendarDatesRemoveTheLastDays() throws {
        let (covered, _) = try period(feed(calendar: Self.calendarHeader + "ALL,1,1,1,1,1,1,1,20220101,20220131\n",
                                           calendarDates: "service_id,date,exception_type\nALL,20220130,2\nALL,20220131,2\n"))
        XCTAssertEqual(covered.firstDate, "2022-01-01")
        XCTAssertEqual(covered.lastDate, "2022-01-29")
        XCTAssertNil(covered.feedEndDate, "no feed_info.txt")
    }

    func testAFeedBuiltOnlyFromCalendarDatesIsCoveredFromItsFirstToItsLastDate() throws {
        let (covered, _) = try period(feed(calendar: nil,
                                           calendarDates: "service_id,date,exception_type\nALL,20220305,1\nALL,20220301,1\nALL,20220320,1\n"))
        XCTAssertEqual(covered.firstDate, "2022-03-01")
        XCTAssertEqual(covered.lastDate, "2022-03-20")
    }

    func testFeedEndDateCutsACalendarLeftOpen() throws {
        let (covered, _) = try period(feed(calendar: Self.calendarHeader + "ALL,1,1,1,1,1,1,1,20220101,20991231\n",
                                           feedInfo: "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\n"
                                               + "P,https://example.org,fi,20220110,20220331\n"))
        XCTAssertEqual(covered.firstDate, "2022-01-10", "feed_start_date cuts the start too")
        XCTAssertEqual(covered.lastDate, "2022-03-31")
        XCTAssertEqual(covered.feedEndDate, "2022-03-31")
    }

    func testFeedEndDateAfterTheLastServiceDayCoversNoMoreDays() throws {
        let (covered, _) = try period(feed(calendar: Self.calendarHeader + "ALL,1,1,1,1,1,1,1,20220101,20220131\n",
                                           feedInfo: "feed_publisher_name,feed_publisher_url,feed_lang,feed_end_date\n"
                                               + "P,https://example.org,fi,20220630\n"))
        XCTAssertEqual(covered.lastDate, "2022-01-31", "nothing runs after January")
        XCTAssertEqual(covered.feedEndDate, "2022-06-30")
    }

    func testAnInvalidFeedEndDateIsCountedAndIgnored() throws {
        let (covered, report) = try period(feed(calendar: Self.calendarHeader + "ALL,1,1,1,1,1,1,1,20220101,20220131\n",
                                                feedInfo: "feed_publisher_name,feed_publisher_url,feed_lang,feed_end_date\n"
                                                    + "P,https://example.org,fi,2022-03-31\n"))
        XCTAssertEqual(covered.lastDate, "2022-01-31")
        XCTAssertNil(covered.feedEndDate)
        XCTAssertEqual(report.skipped["feed_info.txt: invalid feed_end_date (ignored)"], 1)
    }

    func testAServiceNoTripUsesDoesNotExtendCoverage() throws {
        let (covered, _) = try period(feed(calendar: Self.calendarHeader + "ALL,1,1,1,1,1,1,1,20220101,20220131\n"
                                           + "UNUSED,1,1,1,1,1,1,1,20220101,20221231\n"))
        XCTAssertEqual(covered.lastDate, "2022-01-31")
    }

    func testDaysLeftAreCountedFromTheServiceDayInTheRegionsZone() throws {
        let covered = FeedServicePeriod(feed: "f.zip", firstDay: 0, lastDay: try XCTUnwrap(ServiceDate.dayNumber(year: 2022, month: 1, day: 31)))
        // 00:30 on the 29th in Helsinki is still the 28th in UTC.
        let date = localDate(2022, 1, 29, 0, 30)
        XCTAssertEqual(covered.daysLeft(onDayOf: date, in: try XCTUnwrap(TimeZone(identifier: "Europe/Helsinki"))), 2)
        XCTAssertEqual(covered.daysLeft(onDayOf: date, in: try XCTUnwrap(TimeZone(identifier: "UTC"))), 3)
        XCTAssertEqual(covered.daysLeft(onDayOf: localDate(2022, 1, 31, 23, 59), in: try XCTUnwrap(TimeZone(identifier: "Europe/Helsinki"))), 0,
                       "the last day")
        XCTAssertEqual(covered.daysLeft(onDayOf: localDate(2022, 2, 2, 12, 0), in: try XCTUnwrap(TimeZone(identifier: "Europe/Helsinki"))), -2)
    }

    func testADayOutsideEveryFeedIsNamedAfterBeforeOrBetweenThem() throws {
        func day(_ month: Int, _ day: Int) throws -> Int { try XCTUnwrap(ServiceDate.dayNumber(year: 2022, month: month, day: day)) }
        let feeds = [FeedServicePeriod(feed: "a.zip", firstDay: try day(1, 1), lastDay: try day(1, 31)),
                     FeedServicePeriod(feed: "b.zip", firstDay: try day(3, 1), lastDay: try day(3, 31))]
        let zone = try XCTUnwrap(TimeZone(identifier: "Europe/Helsinki"))
        XCTAssertEqual(feeds.outsideCoverageNote(onDayOf: localDate(2022, 4, 2, 9, 0), in: zone, region: "tampere"),
                       "2022-04-02 is after the Tampere timetable ends (2022-03-31)")
        XCTAssertEqual(feeds.outsideCoverageNote(onDayOf: localDate(2021, 12, 31, 23, 0), in: zone, region: "tampere"),
                       "2021-12-31 is before the Tampere timetable starts (2022-01-01)")
        XCTAssertEqual(feeds.outsideCoverageNote(onDayOf: localDate(2022, 2, 10, 9, 0), in: zone, region: "tampere"),
                       "2022-02-10 is between the feeds of the Tampere timetable (a.zip: 2022-01-01 – 2022-01-31; b.zip: 2022-03-01 – 2022-03-31)")
        XCTAssertNil(feeds.outsideCoverageNote(onDayOf: localDate(2022, 3, 31, 23, 30), in: zone, region: "tampere"),
                     "the last day, late in the evening")
        XCTAssertNil([FeedServicePeriod]().outsideCoverageNote(onDayOf: Date(), in: zone, region: "tampere"))
    }
}
