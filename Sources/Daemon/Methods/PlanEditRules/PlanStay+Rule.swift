import Foundation
import Planner
import WireProtocol

/// `plan.stay`'s rule: exactly one of `duration_s`, `until` or `clear` at node `node`.
extension Params.PlanStay: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, input = service.input, regions = service.regions
        let given = [params.durationS != nil, params.until != nil, params.clear == true].filter { $0 }.count
        guard given == 1 else { throw DaemonError.invalidParams("give exactly one of duration_s, until or clear") }
        if let seconds = params.durationS, !(seconds.isFinite && seconds >= 0) {
            throw DaemonError.invalidParams("duration_s must be 0 or more seconds, got \(seconds)")
        }
        return Prepared(step: .change { plan in
            let index = try input.nodeIndex(params.node, in: plan)
            let stay: NodeStay?
            if let seconds = params.durationS {
                stay = .duration(seconds)
            } else if let until = params.until {
                // A bare HH:MM is the next such time after the traveller can get to the node
                // (00:40 on a node reached at 23:58 or 00:58 is the next night's): going forward
                // from the plan's start, not the schedule's time, which waits there for the next
                // ride (a stop reached 23:35 for the first bus at 06:10); else as scheduled (arrive
                // by), on the plan's day when it has no time.
                let now = input.clock.now(), zone = regions.timeZone(of: plan)
                if let arrival = plan.earliestArrivals(now: now)[index] ?? plan.schedule(startingAt: now)[index] {
                    stay = .until(try input.nextTime(until, param: "until", timeZone: zone, after: arrival))
                } else {
                    stay = .until(try input.time(until, param: "until", timeZone: zone, day: input.planDay(plan)))
                }
            } else {
                stay = nil
            }
            return try plan.settingStay(stay, atNode: index)
        })
    }
}
