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
            let stay: NodeStay? = if let seconds = params.durationS {
                .duration(seconds)
            } else if let until = params.until {
                // A bare HH:MM is the next such time after the plan reaches the node (00:40 on a
                // node reached at 23:58 is the next night's), on the plan's day when it has no time.
                .until(try plan.schedule()[index].map {
                    try input.nextTime(until, param: "until", timeZone: regions.timeZone(of: plan), after: $0)
                } ?? input.time(until, param: "until", timeZone: regions.timeZone(of: plan), day: input.planDay(plan)))
            } else {
                nil
            }
            return try plan.settingStay(stay, atNode: index)
        })
    }
}
