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
        return listedFrom(ofSegment: index, shown: shown, ready: nodes[index].leaving(arrivedAt: reached))
    }

    /// The earlier of the node's `shown` time and when the traveller is `ready` there; for a pin
    /// cancelled or skipping its stop, `ready`: the plan is timed as followed with its proposal
    /// (`followingTheProposals`), its node showing when the proposal leaves, and a proposal
    /// boarding a stop nearer the place leaves before the traveller can be at the node (trial
    /// 61 F3: bus 6 at 08:33:30 from the inferred stop was listed before bus 10 at 08:33:15
    /// from Keskustori F, which the traveller walks to instead).
    func listedFrom(ofSegment index: Int, shown: Date?, ready: Date) -> Date {
        guard let shown, legs[index]?.hasCancelledRide != true else { return ready }
        return min(shown, ready)
    }
}

extension Planner {
    /// When the options of segment `index` of `plan` are listed from: `RoutePlan.optionsTime`,
    /// and for a pin of a depart-at plan with a proposal, when the traveller can be at its start
    /// going forward from the plan's start with the rides before it asked again
    /// (`earliestReach`), as its proposal is asked (trial 59 F2: the rides before a chosen bus
    /// timed back to it, the list and the proposal began after them).
    public func optionsTime(ofSegment index: Int, in plan: RoutePlan) async throws -> Date? {
        let shown = plan.optionsTime(ofSegment: index, now: clock.now())
        guard plan.isPinned(segment: index), plan.pendingUpdate(ofSegment: index) != nil,
              plan.earliestDeparture(now: clock.now()) != nil,
              let reached = try await earliestReach(ofSegment: index, in: plan).time else { return shown }
        return plan.listedFrom(ofSegment: index, shown: shown, ready: plan.nodes[index].leaving(arrivedAt: reached))
    }
}
