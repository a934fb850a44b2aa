import WireProtocol

/// When a pinned departure cannot be made, which constraint gives and which hold, in one
/// sentence. The daemon judges it (the segment's `gives_way`, the same for the web page); umctl
/// only words it.
///
/// ```swift
/// ConstraintConflict.wording(plan, missedSegment: 3, askedDay: "2022-01-12")
/// // "to keep the start at 08:00 and the stay at Shop until 09:30, the pin on segment 3 gives way"
/// ```
enum ConstraintConflict {
    /// Nil when the segment has no `gives_way`: then nothing was chosen to give.
    static func wording(_ plan: PlanDocument, missedSegment missed: Int, askedDay: String?) -> String? {
        guard plan.segments.indices.contains(missed - 1), let judged = plan.segments[missed - 1].givesWay else { return nil }
        return "to keep \(listing(judged.held.map { words($0, askedDay: askedDay) })), "
            + "\(words(judged.gives, askedDay: askedDay)) gives way"
    }

    /// "the pin on segment 2", "the start at 08:00", "the stay at Shop until 09:30", …
    static func words(_ constraint: GivesWayDocument.Constraint, askedDay: String?) -> String {
        switch constraint.kind {
        case "pin": "the pin on segment \(constraint.segment.map(String.init) ?? "?")"
        case "start": "the start at \(DayMark.clock(constraint.time, askedDay: askedDay))"
        case "arriving_by": "arriving by \(DayMark.clock(constraint.time, askedDay: askedDay))"
        case "leaving_now": "leaving now"
        case "stay_until": "the stay at \(constraint.name ?? "?") until \(DayMark.clock(constraint.time, askedDay: askedDay))"
        case "stay": "the stay of \(Render.duration(constraint.stayS ?? 0)) at \(constraint.name ?? "?")"
        default: constraint.kind.split(separator: "_").joined(separator: " ")
        }
    }

    /// "a", "a and b", "a, b and c".
    private static func listing(_ parts: [String]) -> String {
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }
}
