import Foundation

/// gpsd's `time` member: ISO 8601 in UTC, with or without a fraction of a second
/// (`2026-11-30T19:17:38.000Z`), the only form gpsd writes. Read here rather than by the wire
/// protocol's reader: gpsd's protocol is not ours.
enum GpsdTime {
    /// The instant, or nil for any other text (a field out of range is not carried over).
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        for (index, separator) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")] as [(Int, Unicode.Scalar)]
        where bytes[index] != UInt8(ascii: separator) { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard !range.isEmpty, bytes[range].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        var fraction = 0.0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), number(20..<bytes.count - 1) != nil,
                  let digits = Double("0." + String(decoding: bytes[20..<bytes.count - 1], as: UTF8.self)) else { return nil }
            fraction = digits
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
              calendar.component(.day, from: date) == day else { return nil } // rejects 31 November
        return date.addingTimeInterval(fraction)
    }
}
