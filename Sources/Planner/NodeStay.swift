import Foundation

/// Time the traveller spends at a node before the next leg leaves it: "an hour at the shop"
/// or "at the office until 16:30".
public enum NodeStay: Hashable, Sendable, Codable {
    /// The next leg leaves this many seconds after the traveller gets there.
    case duration(TimeInterval)
    /// The next leg leaves at this instant, or on arrival when the traveller gets there later.
    case until(Date)

    /// When the traveller leaves, having got there at `arrival`.
    public func leaving(arrivedAt arrival: Date) -> Date {
        switch self {
        case .duration(let seconds): arrival.addingTimeInterval(seconds)
        case .until(let date): max(arrival, date)
        }
    }

    /// The latest the traveller may get there to leave at `departure`. Staying until a time
    /// asks to be there by then (or by the departure, when that is earlier).
    public func latestArrival(leavingAt departure: Date) -> Date {
        switch self {
        case .duration(let seconds): departure.addingTimeInterval(-seconds)
        case .until(let date): min(departure, date)
        }
    }

    /// Whether the stay is until a time (an anchor of its own: the traveller is there until then).
    public var isUntil: Bool { untilDate != nil }

    /// The time a stay "until" ends; nil for a stay of a duration.
    public var untilDate: Date? {
        if case .until(let date) = self { return date }
        return nil
    }

    /// Whether a stay "until" ended before the minute the traveller is shown getting there (a
    /// new time, a slower pace or a missed ride made them later than when it was set): it
    /// holds nobody, they leave on arrival (`leaving(arrivedAt:)`), and the node says so
    /// (issue 39 F14; not re-read as the next such time, a stay of almost a day nobody asked for).
    public func endedBefore(arrival: Date) -> Bool {
        guard let until = untilDate else { return false }
        return until < Date(timeIntervalSince1970: (arrival.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    /// The stay's length when it is one (used when no leg is dated).
    public var seconds: TimeInterval? {
        if case .duration(let seconds) = self { return seconds }
        return nil
    }
}
