import Foundation

/// Calendar arithmetic on GTFS service dates as day numbers (days since 1970-01-01), and
/// the GTFS rule that anchors a service day's times at "noon minus 12 hours" local time,
/// which is what makes days with a daylight-saving change come out right.
public enum ServiceDate {
    /// The zone a timetable's times are read in: its IANA identifier, else UTC (never the
    /// machine's zone, which would move every service day with the computer).
    static func zone(named identifier: String) -> TimeZone {
        TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0) ?? .current
    }

    /// Day number of a proleptic Gregorian date; `nil` for an impossible date.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// (year, month, day) of a day number.
    static func civil(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Monday = 0 … Sunday = 6 (1970-01-01 was a Thursday).
    static func weekday(_ dayNumber: Int) -> Int {
        ((dayNumber % 7) + 7 + 3) % 7
    }

    /// "2022-01-12".
    static func iso(_ dayNumber: Int) -> String {
        let c = civil(dayNumber)
        return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
    }

    /// Unix seconds of local noon minus 12 h on that day in `timeZone`: time zero of GTFS
    /// times for trips of that service day. On a spring-forward day it is 23:00 of the
    /// previous evening in wall-clock terms, exactly as the GTFS reference says.
    static func referenceInstant(_ dayNumber: Int, in timeZone: TimeZone) -> Int {
        let localNoon = dayNumber * 86_400 + 43_200
        var utc = localNoon - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(localNoon)))
        utc = localNoon - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc)))
        return utc - 43_200
    }

    /// The local calendar day of an instant in `timeZone`: the day a service day is counted by.
    /// Public so that whatever shows service days (the daemon's `status`) tells a day by the
    /// same rule.
    public static func localDay(of instant: Date, in timeZone: TimeZone) -> Int {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        return seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    /// "HH:MM" on the wall clock of `timeZone` (the seconds dropped), and the local day: what a
    /// `DateFormatter` says, without making one (an ICU formatter costs about a million
    /// instructions, more than the search whose answer it words).
    static func wallClock(of instant: Date, in timeZone: TimeZone) -> (day: Int, time: String) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let ofDay = seconds - day * 86_400
        return (day, String(format: "%02d:%02d", ofDay / 3_600, ofDay % 3_600 / 60))
    }
}
