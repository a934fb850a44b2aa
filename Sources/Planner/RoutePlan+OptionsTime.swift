import Foundation

extension RoutePlan {
    /// When the options of segment `index` are listed from (`Planner.alternatives`): its
    /// `departureTimes` time, or, for a pin with a proposal the traveller can reach before its
    /// time (a ride cancelled, skipping its stop, gone), when they can be at its start going
    /// forward (`earliestArrivals`), which the proposal is asked from (docs/planner.md "The
    /// proposal rule"): timed back from the cancelled ride, the list began after it and left out
    /// the ride proposed (trial 58 F2). Nil when not known.
    public func optionsTime(ofSegment index: Int, now: Date) -> Date? {
        let shown = departureTimes(startingAt: now)[index]
        guard isPinned(segment: index), pendingUpdate(ofSegment: index) != nil,
              let reached = earliestArrivals(now: now)[index] else { return shown }
        let ready = nodes[index].leaving(arrivedAt: reached)
        return shown.map { min($0, ready) } ?? ready
    }
}
