import Foundation

/// A departure the user picks (`plan pin`, `plan choose`) that the traveller cannot be at from
/// the plan's start: trial 51 pinned 07:00 in a plan starting 07:10 and the pin gave way at
/// once ("to keep the start at 07:10, the pin on segment 1 gives way"), the user's newest
/// choice lost without a word. The rule (docs/planner.md, "The newest choice is refused, never
/// defeated"): such an edit is refused (`conflict`, naming the start), nothing changes; the
/// user moves the start first. A later `plan time` past a pin keeps the pin, which gives way.
extension RoutePlan {
    /// Why the traveller cannot leave on segment `index` at `departure`, coming from the
    /// plan's start (`earliestDeparture`: the time it departs at, now for "leave now").
    public enum DepartureBeforeTheTraveller: Equatable, Sendable {
        /// It leaves before the plan starts (the date given).
        case beforeTheStart(Date)
        /// It leaves before the traveller, leaving at the start, can leave the segment's start
        /// node (`ready`, through the legs before it and their stays).
        case beforeTheyCanBeThere(ready: Date)
    }

    /// Nil when the traveller can leave on segment `index` at `departure`, or nothing says when
    /// they can (an arrive-by plan, a leg before it missing or missed).
    public func departureBeforeTheTraveller(segment index: Int, at departure: Date, now: Date) -> DepartureBeforeTheTraveller? {
        guard let start = earliestDeparture(now: now) else { return nil }
        // A second's leeway: times shown to the minute are read back to the second.
        if departure < start.addingTimeInterval(-1) { return .beforeTheStart(start) }
        guard nodes.indices.contains(index), let arrived = earliestArrivals(now: now)[index] else { return nil }
        let ready = nodes[index].leaving(arrivedAt: arrived)
        return departure < ready.addingTimeInterval(-1) ? .beforeTheyCanBeThere(ready: ready) : nil
    }
}
