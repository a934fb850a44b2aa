import Foundation

/// Which service days a feed covers: from the first to the last day any of its trips runs
/// (`calendar.txt` and `calendar_dates.txt`, so a feed built only from dates is covered the same
/// way), cut to the validity `feed_info.txt` declares. A calendar left open until 2099 by a
/// feed whose `feed_end_date` is next month covers until next month; a `feed_end_date` past the
/// last service day covers nothing more, as nothing runs then.
public struct FeedCoverage: Hashable, Sendable {
    /// `feed_info.txt`'s `feed_start_date` and `feed_end_date` as day numbers; nil when absent.
    public var feedStart: Int?
    public var feedEnd: Int?

    public init(feedStart: Int? = nil, feedEnd: Int? = nil) {
        self.feedStart = feedStart
        self.feedEnd = feedEnd
    }

    /// The covered days of a feed whose trips run from `serviceDays.lowerBound` to its upper
    /// bound; nil when the declared validity leaves none of them.
    public func covered(_ serviceDays: ClosedRange<Int>) -> ClosedRange<Int>? {
        let first = max(serviceDays.lowerBound, feedStart ?? .min)
        let last = min(serviceDays.upperBound, feedEnd ?? .max)
        return first <= last ? first...last : nil
    }
}

extension FeedServicePeriod {
    /// The service day of `date` in `zone`, "2022-01-12".
    public static func serviceDay(of date: Date, in zone: TimeZone) -> String {
        ServiceDate.iso(ServiceDate.localDay(of: date, in: zone))
    }

    /// Whole service days from the service day of `date` (its local date in `zone`) to the feed's
    /// last covered day: 0 on the last day, negative once it has passed.
    public func daysLeft(onDayOf date: Date, in zone: TimeZone) -> Int {
        lastDay - ServiceDate.localDay(of: date, in: zone)
    }
}

extension Array where Element == FeedServicePeriod {
    /// Why a trip on the service day of `date` (in `zone`) has no timetable in region `region`,
    /// in words ("2022-04-02 is after the Tampere timetable ends (2022-03-31)"); nil when a feed
    /// covers that day, or there are no feeds.
    public func outsideCoverageNote(onDayOf date: Date, in zone: TimeZone, region: String) -> String? {
        guard let first = map(\.firstDay).min(), let last = map(\.lastDay).max() else { return nil }
        let day = ServiceDate.localDay(of: date, in: zone)
        if contains(where: { ($0.firstDay...$0.lastDay).contains(day) }) { return nil }
        let timetable = "the \(region.prefix(1).uppercased() + region.dropFirst()) timetable"
        if day > last { return "\(ServiceDate.iso(day)) is after \(timetable) ends (\(ServiceDate.iso(last)))" }
        if day < first { return "\(ServiceDate.iso(day)) is before \(timetable) starts (\(ServiceDate.iso(first)))" }
        return "\(ServiceDate.iso(day)) is between the feeds of \(timetable) (\(map(\.summary).joined(separator: "; ")))"
    }
}
