import WireProtocol

/// When a pinned departure cannot be made, which constraint gives and which hold. The planner
/// keeps the start time, the stays and the earlier pins (later ones in an arrive-by plan) and
/// lets this pin go (marked missed, a catchable one proposed); the answer says so in one sentence.
///
/// ```swift
/// ConstraintConflict.wording(plan, missedSegment: 3, askedDay: "2022-01-12")
/// // "to keep the start at 08:00 and the stay at Shop until 09:30, the pin on segment 3 gives way"
/// ```
enum ConstraintConflict {
    /// The pin that gives is the missed segment itself going forward (the last pin at or before
    /// the late segment in an arrive-by plan). Nil when there is none: then nothing was chosen
    /// to give.
    static func wording(_ plan: PlanDocument, missedSegment missed: Int, askedDay: String?) -> String? {
        let pins = plan.pinnedNumbers
        let arriveBy = plan.timePreference.kind == "arrive_by"
        // A walk or drive late in an arrive-by plan because the stay it leaves ends too late:
        // the stay holds, the arrival gives (the planner never shortens a stay).
        if arriveBy, !pins.contains(missed), plan.segments.indices.contains(missed - 1),
           plan.segments[missed - 1].leg?.rides.isEmpty == true, let until = plan.nodes[missed - 1].stayUntil {
            return "to keep the stay at \(plan.nodes[missed - 1].name) until \(DayMark.clock(until, askedDay: askedDay)), "
                + "arriving by \(DayMark.clock(plan.timePreference.time, askedDay: askedDay)) gives way"
        }
        guard let segment = arriveBy ? pins.last(where: { $0 <= missed }) : pins.first(where: { $0 >= missed }) else { return nil }
        // Going forward, the pin gives way when it is the connection missed: a ride before it
        // shown missed does not say the pin went (trial 48 F8 read "gives way" under segment 1
        // while the pin on segment 5 was shown caught).
        guard arriveBy || segment == missed else { return nil }
        var held: [String] = []
        // A pin that gave way itself (shown missed) held nothing.
        let heldPins = pins.filter { (arriveBy ? $0 > segment : $0 < segment) && plan.segments[$0 - 1].missedConnection != true }
        // Going forward, the last pin held before it is where the traveller is timed from: the
        // start before that pin no longer bears on this one (trial 50: "to keep the start at
        // 10:20 and the pin on segment 1" in a plan that leaves at 11:29 for that pin).
        let lastHeldPin = arriveBy ? nil : heldPins.last
        if let lastHeldPin {
            held.append("the pin on segment \(lastHeldPin)")
        } else {
            switch plan.timePreference.kind {
            case "arrive_by": held.append("arriving by \(DayMark.clock(plan.timePreference.time, askedDay: askedDay))")
            case "depart_at": held.append("the start at \(DayMark.clock(plan.timePreference.time, askedDay: askedDay))")
            default: held.append("leaving now")
            }
        }
        // The stays and pins on the side the plan is timed from: before the segment going
        // forward (after the last pin held), after it going backward.
        let nodes = arriveBy ? Array(plan.nodes.indices.dropFirst(segment))
            : Array(plan.nodes.indices.prefix(segment).dropFirst(lastHeldPin ?? 0))
        for index in nodes {
            let node = plan.nodes[index]
            if let until = node.stayUntil {
                held.append("the stay at \(node.name) until \(DayMark.clock(until, askedDay: askedDay))")
            } else if let seconds = node.stayS {
                held.append("the stay of \(Render.duration(seconds)) at \(node.name)")
            }
        }
        if arriveBy { held += heldPins.map { "the pin on segment \($0)" } }
        return "to keep \(listing(held)), the pin on segment \(segment) gives way"
    }

    /// "a", "a and b", "a, b and c".
    private static func listing(_ parts: [String]) -> String {
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }
}
