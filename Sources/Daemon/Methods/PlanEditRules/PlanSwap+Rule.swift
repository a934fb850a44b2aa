import Foundation
import Planner
import WireProtocol

/// `plan.swap`'s rule: origin and destination swap; the planner's drives the reversed chain left the car behind for are
/// walked or ridden (`PlanService.legsLeavingTheCarBehind`), as after every edit of places or modes.
extension Params.PlanSwap: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        return Prepared(step: .change { $0.swappingEnds() }, compute: service.legsLeavingTheCarBehind)
    }
}
