import FoundationEssentials

/// Instants on the wire: ISO 8601 with the region's UTC offset (`2022-01-12T08:15:00+02:00`),
/// and the times a person types (`HH:MM` today, or ISO 8601 with or without an offset).
public enum WireTime {
    /// `2022-01-12T08:15:00+02:00` in `timeZone` (`Z` only when the offset is zero).
    /// Computed directly (days-from-civil arithmetic) rather than with a date formatter, which
    /// costs far more to create than a whole `plan.show` otherwise takes. Seconds are truncated.
    public static func string(from date: Date, timeZone: TimeZone) -> String {
        string(from: date, offset: timeZone.secondsFromGMT(for: date))
    }

    /// As `string(from:timeZone:)`, at an offset east of UTC in seconds: umctl gives the C
    /// library's offset for its machine's clock without making a `TimeZone` (whose first use
    /// fills FoundationEssentials' zone cache, a sixth of a `umctl status`).
    /// Total: an instant outside `writableSeconds` (or not a number) is written as the nearest
    /// end of that range rather than trapping on the conversion to an integer.
    public static func string(from date: Date, offset: Int) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let shown = seconds.isNaN ? 0 : Int64(min(max(seconds, Double(writableSeconds.lowerBound)), Double(writableSeconds.upperBound)))
        let zoneOffset = max(-maximumOffset, min(maximumOffset, offset))
        let local = shown + Int64(zoneOffset)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        // Proleptic Gregorian date of a day count since 1970-01-01.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }
        let yearDigits = String(year)
        var text = "\(String(repeating: "0", count: max(0, 4 - yearDigits.count)))\(yearDigits)-\(two(month))-\(two(day))T\(two(secondOfDay / 3_600)):\(two(secondOfDay % 3_600 / 60)):\(two(secondOfDay % 60))"
        if zoneOffset == 0 {
            text += "Z"
        } else {
            let magnitude = Int64(abs(zoneOffset))
            text += "\(zoneOffset < 0 ? "-" : "+")\(two(magnitude / 3_600)):\(two(magnitude % 3_600 / 60))"
        }
        return text
    }

    /// POSIX seconds of 0001-01-02T00:00:00Z ... 9999-12-30T23:59:59Z: a day inside what four
    /// year digits hold, so that any offset keeps the year within them.
    static let writableSeconds: ClosedRange<Int64> = -62_135_510_400...253_402_214_399
    /// The largest UTC offset written (18 hours, as ISO 8601 readers accept).
    static let maximumOffset = 18 * 3_600

    /// Reads an instant the daemon wrote: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of a second,
    /// and `Z` or an offset (`+02:00`, `+0200`, `+02`). Read by hand rather than with a date
    /// formatter (which needs ICU, which umctl does not load); fields out of range are rejected,
    /// not carried into the next day or hour.
    public static func date(from text: String) -> Date? {
        var reader = DigitReader(text)
        guard let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 2), reader.skip("-"),
              let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t"),
              let hour = reader.number(digits: 2), reader.skip(":"), let minute = reader.number(digits: 2), reader.skip(":"),
              let second = reader.number(digits: 2) else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            guard let digits = reader.fraction() else { return nil }
            fraction = digits
        }
        var offset = 0
        if !(reader.skip("Z") || reader.skip("z")) {
            let sign = reader.skip("-") ? -1 : 1
            guard sign == -1 || reader.skip("+"), let hours = reader.number(digits: 2) else { return nil }
            var minutes = 0
            if !reader.isAtEnd {
                _ = reader.skip(":")
                guard let typed = reader.number(digits: 2) else { return nil }
                minutes = typed
            }
            guard hours <= 18, minutes < 60 else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        guard reader.isAtEnd, (1...12).contains(month), (1...CivilDay.length(ofMonth: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = CivilDay.number(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Interprets what a person typed: `HH:MM` is today in `timeZone` (the day of `now` there);
    /// `YYYY-MM-DDTHH:MM[:SS]` without an offset is wall-clock time in `timeZone`; a full
    /// ISO 8601 instant with an offset is taken as is. Returns nil for anything else.
    /// An explicit offset (`Z`, `+02:00`, `+0200`, `-03`) makes it that instant, with or without seconds.
    public static func parse(_ text: String, timeZone: TimeZone, now: Date) -> Date? {
        let trimmed = text.trimmingBlanks()
        if let date = date(from: trimmed) { return date }
        if let (local, offset) = splitOffset(trimmed) {
            guard let zone = TimeZone(secondsFromGMT: offset), local.contains("T") || local.contains(" ") else { return nil }
            return parse(local, timeZone: zone, now: now)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if let (hour, minute) = clock(trimmed) {
            var parts = calendar.dateComponents([.year, .month, .day], from: now)
            parts.hour = hour
            parts.minute = minute
            parts.second = 0
            return calendar.date(from: parts)
        }
        let pieces = trimmed.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard pieces.count == 2 else { return nil }
        let day = pieces[0].split(separator: "-").compactMap { Int($0) }
        let time = pieces[1].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, (2...3).contains(time.count), pieces[0].split(separator: "-").count == 3,
              pieces[1].split(separator: ":").count == time.count,
              (1...12).contains(day[1]), (1...31).contains(day[2]),
              (0...23).contains(time[0]), (0...59).contains(time[1]),
              time.count == 2 || (0...59).contains(time[2]) else { return nil }
        let parts = DateComponents(year: day[0], month: day[1], day: day[2],
                                   hour: time[0], minute: time[1], second: time.count == 3 ? time[2] : 0)
        guard let date = calendar.date(from: parts),
              calendar.component(.day, from: date) == day[2] else { return nil } // rejects 31 February
        return date
    }

    /// A date-time's trailing UTC offset in seconds and the text before it; nil without one.
    static func splitOffset(_ text: String) -> (String, Int)? {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return (String(text.dropLast()), 0) }
        guard let time = text.lastIndex(where: { $0 == "T" || $0 == " " }),
              let sign = text[time...].lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let digits = text[text.index(after: sign)...].filter { $0 != ":" }
        guard [2, 4].contains(digits.count), digits.allSatisfy(\.isASCII), let number = Int(digits),
              text[text.index(after: sign)...].filter({ $0 == ":" }).count <= 1 else { return nil }
        let hours = digits.count == 2 ? number : number / 100, minutes = digits.count == 2 ? 0 : number % 100
        guard hours <= 18, minutes < 60 else { return nil }
        let seconds = (hours * 3_600 + minutes * 60) * (text[sign] == "-" ? -1 : 1)
        return (String(text[..<sign]), seconds)
    }

    /// The IANA name to show for a zone. Foundation names `UTC` "GMT"; we say UTC everywhere.
    public static func zoneName(_ zone: TimeZone) -> String {
        zoneName(identifier: zone.identifier)
    }

    /// The name to show for a zone's IANA identifier (UTC for each of its aliases).
    public static func zoneName(identifier: String) -> String {
        utcAliases.contains(identifier) ? "UTC" : identifier
    }

    /// Names tzdata and Foundation give UTC itself (Foundation says "GMT"; a Debian machine set
    /// to UTC says "Etc/UTC").
    static let utcAliases: Set<String> = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "GMT0",
                                          "UCT", "Etc/UCT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu", "Greenwich",
                                          "Etc/Greenwich"]

    /// Whether `text` is a bare clock time (`H:MM` or `HH:MM`), which `parse` puts on a day.
    public static func isClock(_ text: String) -> Bool { clock(text.trimmingBlanks()) != nil }

    /// `H:MM` or `HH:MM` within a day.
    static func clock(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (hour, minute)
    }
}
