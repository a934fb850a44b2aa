import Foundation

extension Planner {
    /// A proposal stays only while its pin gives way: a pinned ride the plan now catches, that
    /// still runs as chosen (`pinnedRideStillRuns`: not cancelled, not skipping its stop, its
    /// trips calling where and when it rides them), in a plan missed and late nowhere (a pin gives
    /// way for a connection missed before it or late after it), has none. An edit
    /// computes in steps: `plan insert` of Tesoma A before a pinned bus 6 first walked the new
    /// hop (1 h 35 min, the pin missed, tram 3 at 10:01 proposed), then rode it and caught the
    /// bus, and the proposal stayed beside the bus the traveller takes (session 59). A pin the
    /// run did not find again keeps its proposal (`LegRun.pinsNotFound`).
    func droppingProposalsOfPinsCaught(run: inout LegRun) async {
        let plan = run.plan
        guard plan.brokenConnections(now: clock.now()).isEmpty else { return }
        for index in plan.pinnedSegmentIndices where plan.pendingUpdate(ofSegment: index) != nil {
            guard !run.pinsNotFound.contains(index), let leg = plan.legs[index], leg.brokenChange == nil,
                  await pinnedRideStillRuns(leg, from: plan.nodes[index].place, access: plan.access) else { continue }
            run.plan.pending[plan.segmentKey(index)] = nil
        }
    }
}
