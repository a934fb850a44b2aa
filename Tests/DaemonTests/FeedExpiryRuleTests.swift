import Daemon
import Foundation
import Transit
import XCTest

/// Which feeds `FeedExpiryWatcher` warns about on a day: from `warningDays` days before the last
/// day to the last day itself, once per service day in the region's zone.
final class FeedExpiryRuleTests: XCTestCase {
    private let zone = TimeZone(identifier: "Europe/Helsinki")!
    /// 2022-03-31, days since 1970-01-01.
    private let lastDay = 19_082

    private func due(daysBefore: Int, hour: Int = 12, warningDays: Int = 7, warned: [String: String] = [:]) -> [FeedExpiryWatcher.Warning] {
        let feed = FeedServicePeriod(feed: "f.zip", firstDay: lastDay - 60, lastDay: lastDay)
        // Noon (or `hour`) UTC on the day `daysBefore` days before the last one.
        let now = Date(timeIntervalSince1970: TimeInterval((lastDay - daysBefore) * 86_400 + hour * 3_600))
        return FeedExpiryWatcher.due(region: "town", feeds: [feed], zone: zone, now: now, warningDays: warningDays, warned: warned)
    }

    func testFeedsAreDueFromWarningDaysBeforeTheirLastDayToTheLastDay() {
        XCTAssertEqual(due(daysBefore: 8).count, 0)
        XCTAssertEqual(due(daysBefore: 7).map(\.daysLeft), [7])
        XCTAssertEqual(due(daysBefore: 0).map(\.daysLeft), [0])
        XCTAssertEqual(due(daysBefore: -1).count, 0, "a feed already run out is not 'expiring'")
        XCTAssertEqual(due(daysBefore: 3, warningDays: 2).count, 0)
        XCTAssertEqual(due(daysBefore: 0, warningDays: 0).map(\.daysLeft), [0])
    }

    func testTheDayIsTheServiceDayInTheRegionsZone() {
        // 22:30 UTC on the day before the last is already the last day in Helsinki.
        XCTAssertEqual(due(daysBefore: 1, hour: 22).map(\.today), ["2022-03-31"])
        XCTAssertEqual(due(daysBefore: 1, hour: 22).map(\.daysLeft), [0])
    }

    func testAFeedWarnedAboutTodayIsNotDueAgainButIsTheNextDay() {
        let today = due(daysBefore: 3)
        XCTAssertEqual(today.map(\.today), ["2022-03-28"])
        let warned = ["town\tf.zip\t2022-03-31": "2022-03-28"]
        XCTAssertEqual(due(daysBefore: 3, warned: warned).count, 0)
        XCTAssertEqual(due(daysBefore: 2, warned: warned).map(\.daysLeft), [2])
        XCTAssertEqual(due(daysBefore: 0, warned: ["town\tf.zip\t2022-03-31": "2022-03-30"]).map(\.daysLeft), [0], "again on the last day")
        XCTAssertEqual(due(daysBefore: 3, warned: ["town\tf.zip\t2022-02-28": "2022-03-28"]).count, 1,
                       "a new version of the feed (another last day) is warned about afresh")
    }
}
