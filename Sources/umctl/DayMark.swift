import WireProtocol

/// The day a time falls on, next to its clock time: a transit answer for 20:00 can leave at 06:02
/// the next morning, and "06:02" alone reads as the same evening. Times on the wire are ISO 8601
/// in the region's zone (`2022-01-13T06:02:00+02:00`), so their date part is the local date.
///
/// ```swift
/// DayMark.clock("2022-01-13T06:02:00+02:00", askedDay: "2022-01-12")  // "06:02 +1d"
/// ```
enum DayMark {
    /// `HH:MM`, followed by " +1d" (" -1d", " +2d" …) when its local date is not `askedDay`
    /// ("YYYY-MM-DD", or an ISO instant whose date is taken); the bare `HH:MM` without one.
    static func clock(_ iso: String?, askedDay: String?) -> String {
        let time = Render.clock(iso)
        guard let iso, let asked = askedDay, let shift = days(from: asked, to: iso), shift != 0 else { return time }
        return "\(time) \(shift > 0 ? "+" : "-")\(abs(shift))d"
    }

    /// Whole days from the date of `earlier` to the date of `later` (each "YYYY-MM-DD…"); nil
    /// when either does not start with a date.
    static func days(from earlier: String, to later: String) -> Int? {
        guard let first = dayNumber(earlier), let second = dayNumber(later) else { return nil }
        return second - first
    }

    /// Days since 1970-01-01 of the date an ISO text starts with.
    static func dayNumber(_ text: String) -> Int? {
        let parts = text.prefix(10).split(separator: "-")
        guard text.count >= 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        return CivilDay.number(year: year, month: month, day: day)
    }
}

extension DayMark {
    /// "no more transit on 2022-01-12 after 20:00; next departure 06:02 +1d (2022-01-13)" when
    /// the transit answer leaves on a later day than asked (for an arrive-by trip: arrives on an
    /// earlier one); nil when it is on the day asked.
    static func otherDayTransitNote(_ transit: CompareOption, _ document: CompareDocument) -> String? {
        guard let asked = document.time else { return nil }
        let day = String(asked.prefix(10))
        if document.timeKind == "arrive_by" {
            guard let arrival = transit.arrival, let shift = days(from: asked, to: arrival), shift < 0 else { return nil }
            return "no transit on \(day) arrives by \(Render.clock(asked)); latest arrival "
                + "\(clock(arrival, askedDay: asked)) (\(arrival.prefix(10)))"
        }
        guard let departure = transit.departure, let shift = days(from: asked, to: departure), shift > 0 else { return nil }
        return "no more transit on \(day) after \(Render.clock(asked)); next departure "
            + "\(clock(departure, askedDay: asked)) (\(departure.prefix(10)))"
    }
}

extension DayMark {
    /// A feed's service hours on its service day: "05:02 – 00:48 +1d", or "no service".
    static func serviceHours(_ feed: TransitFeedDocument) -> String {
        guard feed.serviceDay != nil else { return "-" }
        guard let first = feed.firstDeparture, let last = feed.lastArrival else { return "no service" }
        return "\(clock(first, askedDay: feed.serviceDay)) – \(clock(last, askedDay: feed.serviceDay))"
    }
}

extension DayMark {
    /// How long a feed still covers: "12 days left", "last day today", "ended 3 days ago"; nil
    /// from a daemon that does not say.
    static func daysLeft(_ feed: TransitFeedDocument) -> String? {
        guard let left = feed.daysLeft else { return nil }
        switch left {
        case 0: return "last day today"
        case 1...: return "\(left) day\(left == 1 ? "" : "s") left"
        default: return "ended \(-left) day\(left == -1 ? "" : "s") ago"
        }
    }
}
