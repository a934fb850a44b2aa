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

    /// Times said together, each `HH:MM` (with its day when not `askedDay`), or every one
    /// `HH:MM:SS` when two different instants among them read the same minute: "the plan then ends
    /// at 09:33 at the earliest, after the 09:33 you must arrive by" said nothing (trial 60 F10).
    static func clocks(_ times: [String?], askedDay: String?) -> [String] {
        let minutes = times.map { DayMark.clock($0, askedDay: askedDay) }
        let instants = times.map { $0.flatMap(WireTime.date(from:)) }
        let collide = minutes.indices.contains { i in
            minutes.indices.contains { j in i < j && minutes[i] == minutes[j] && instants[i] != nil && instants[j] != nil && instants[i] != instants[j] }
        }
        guard collide else { return minutes }
        return times.map { $0.map { withSeconds($0, askedDay: askedDay) } ?? DayMark.clock(nil, askedDay: askedDay) }
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

    /// The first ride of a missed leg that is reached by an access walk, and when the walk gets
    /// the traveller to its stop (`reached`, the segment's wire field); nil when the leg starts
    /// at its ride's stop (an access walk of nothing, as `legSteps` leaves it out: there the
    /// traveller is kept by when they get to or can leave the node, which the plain missed line
    /// says), the daemon gave no such time, or a change is the one missed (`missedChange`).
    static func missedRide(_ segment: SegmentDocument) -> (ride: RideDocument, reached: String)? {
        guard missedChange(segment) == nil, let reached = segment.reached, let leg = segment.leg, let ride = leg.rides.first,
              let walk = leg.walks.first, walk.kind == "access",
              walk.distanceM.rounded() > 0 || walk.durationS >= 30 else { return nil }
        return (ride, reached)
    }

    /// The ride of a missed journey that leaves before the ride before it gets the traveller to
    /// its stop (a change a realtime delay broke), that ride before it, and when the traveller gets
    /// there: as the daemon judged it (`missed_change_ride`, `reached`); nil when no change is
    /// missed (the first ride is then the one missed, or none).
    static func missedChange(_ segment: SegmentDocument) -> (ride: RideDocument, before: RideDocument, reached: String)? {
        guard let number = segment.missedChangeRide, let reached = segment.reached, let rides = segment.leg?.rides,
              number >= 2, number <= rides.count else { return nil }
        return (rides[number - 1], rides[number - 2], reached)
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
