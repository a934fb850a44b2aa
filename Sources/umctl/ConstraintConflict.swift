import WireProtocol

/// When a pinned departure cannot be made, which constraint gives and which hold, in one
/// sentence. The daemon judges it (the segment's `gives_way`, the same for the web page); umctl
/// only words it. The pin that gives stays pinned (shown missed, a ride proposed): the sentence
/// says it is missed (late), as its mark does, not that it went (trial 53: "the pin on segment
/// 3 gives way" beside `[locked, pinned, missed]`).
///
/// ```swift
/// ConstraintConflict.wording(plan, missedSegment: 3, askedDay: "2022-01-12")
/// // "the start at 08:00 and the stay at Shop until 09:30 hold, so the pin on segment 3 is missed"
/// ```
enum ConstraintConflict {
    /// Nil when the segment has no `gives_way`: then nothing was chosen to give.
    static func wording(_ plan: PlanDocument, missedSegment missed: Int, askedDay: String?) -> String? {
        guard plan.segments.indices.contains(missed - 1), let judged = plan.segments[missed - 1].givesWay else { return nil }
        let held = judged.held.map { words($0, plan: plan, askedDay: askedDay) }
        return "\(listing(held)) \(held.count == 1 ? "holds" : "hold"), so "
            + "\(words(judged.gives, plan: plan, askedDay: askedDay)) is \(outcome(of: judged.gives, in: plan))"
    }

    /// "the pin on segment 2", "the start at 08:00", "the stay at Shop until 09:30", …
    static func words(_ constraint: GivesWayDocument.Constraint, plan: PlanDocument, askedDay: String?) -> String {
        // "the stay at Shop", "the stay near Tarmonkatu": the node's own words for being there.
        let at = constraint.node.flatMap { plan.nodes.indices.contains($0 - 1) ? plan.nodes[$0 - 1].at : nil }
            ?? "at \(constraint.name ?? "?")"
        return switch constraint.kind {
        case "pin": "the pin on segment \(constraint.segment.map(String.init) ?? "?")"
        case "start": "the start at \(DayMark.clock(constraint.time, askedDay: askedDay))"
        case "arriving_by": "the arrival by \(DayMark.clock(constraint.time, askedDay: askedDay))"
        case "leaving_now": "leaving now"
        case "stay_until": "the stay \(at) until \(DayMark.clock(constraint.time, askedDay: askedDay))"
        case "stay": "the stay of \(Render.duration(constraint.stayS ?? 0)) \(at)"
        default: constraint.kind.split(separator: "_").joined(separator: " ")
        }
    }

    /// "late" for a pin shown late, else "missed", as the daemon judged it (`missed_as`) and its mark says.
    private static func outcome(of gives: GivesWayDocument.Constraint, in plan: PlanDocument) -> String {
        guard let number = gives.segment, plan.segments.indices.contains(number - 1) else { return "missed" }
        return plan.segments[number - 1].missedAs ?? "missed"
    }

    /// "a", "a and b", "a, b and c".
    private static func listing(_ parts: [String]) -> String {
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }
}
