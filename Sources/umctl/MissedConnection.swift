import FoundationEssentials
import WireProtocol

/// The numbers of a missed (or late) connection: both times, and by how much. When both fall in
/// the same minute, "it leaves 08:57 but you get there at 08:57" says nothing, so the times then
/// show their seconds.
///
/// ```swift
/// MissedConnection.clocks("…T08:57:10+02:00", "…T08:57:40+02:00", askedDay: nil)  // ("08:57:10", "08:57:40")
/// MissedConnection.gap(from: "…T08:57:10+02:00", to: "…T08:57:40+02:00")         // ", 30 s too late"
/// MissedConnection.gap(from: "…T10:43:00+02:00", to: "…T10:46:50+02:00")         // ", 3 min too late"
/// ```
enum MissedConnection {
    /// The two times as `HH:MM` (with their day when not `askedDay`), or `HH:MM:SS` when the minutes are equal.
    static func clocks(_ first: String?, _ second: String?, askedDay: String?) -> (String, String) {
        let a = DayMark.clock(first, askedDay: askedDay), b = DayMark.clock(second, askedDay: askedDay)
        guard a == b, let first, let second else { return (a, b) }
        return (withSeconds(first, askedDay: askedDay), withSeconds(second, askedDay: askedDay))
    }

    /// ", 30 s too late" or ", 3 min too late": how far `later` is after `earlier`; "" when
    /// either time is unknown. From a minute on it is the difference of the two times as shown
    /// beside it (10:43 and 10:46 read "3 min", even when 3 min 50 s lie between), as every
    /// duration shown between two times is (`ShownTime`).
    static func gap(from earlier: String?, to later: String?) -> String {
        guard let earlier, let later, let start = WireTime.date(from: earlier), let end = WireTime.date(from: later) else { return "" }
        let seconds = Int(end.timeIntervalSince(start).rounded())
        return seconds < 60 ? ", \(seconds) s too late" : ", \(Render.duration(Double(seconds), from: earlier, to: later)) too late"
    }

    /// The first ride of a leg whose access walks get to its stop after it leaves (a missed
    /// ride shown walking from when the traveller can leave), and when the walks get there;
    /// nil when the walks reach it in time.
    static func rideMissedOnFoot(_ leg: LegDocument) -> (ride: RideDocument, walked: String)? {
        guard let ride = leg.rides.first, let leaves = WireTime.date(from: ride.departure) else { return nil }
        let access = leg.walks.filter { $0.kind == "access" }
        guard let first = access.first, let start = WireTime.date(from: first.start), let offset = offset(of: first.start) else { return nil }
        let arrives = start.addingTimeInterval(access.reduce(0) { $0 + $1.durationS })
        guard arrives > leaves.addingTimeInterval(1) else { return nil }
        return (ride, WireTime.string(from: arrives, offset: offset))
    }

    /// The UTC offset of an instant the daemon wrote, in seconds east ("…+02:00" is 7,200, "…Z"
    /// 0): the walk's arrival is written in its start's offset, with no time zone loaded
    /// (umctl keeps off Foundation's zone data, `LayeringTests`).
    private static func offset(of iso: String) -> Int? {
        if iso.hasSuffix("Z") || iso.hasSuffix("z") { return 0 }
        let tail = Array(iso.suffix(6))
        guard tail.count == 6, tail[0] == "+" || tail[0] == "-", tail[3] == ":",
              let hours = Int(String(tail[1...2])), let minutes = Int(String(tail[4...5])) else { return nil }
        return (tail[0] == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    /// `HH:MM:SS` of an ISO instant, with its day mark.
    private static func withSeconds(_ iso: String, askedDay: String?) -> String {
        let minutes = DayMark.clock(iso, askedDay: askedDay)
        guard let t = iso.firstIndex(of: "T") else { return minutes }
        let time = iso[iso.index(after: t)...].prefix(8)
        guard time.count == 8 else { return minutes }
        return String(time) + minutes.dropFirst(5)
    }
}
