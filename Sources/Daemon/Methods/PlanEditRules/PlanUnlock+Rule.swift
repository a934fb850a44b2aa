import Foundation
import Planner
import WireProtocol

/// `plan.unlock`'s rule: the lock (and the pin) of `segment` removed. A drive so unlocked is the
/// planner's: where the car is not at hand, it is walked or ridden (`PlanService.legsLeavingTheCarBehind`).
extension Params.PlanUnlock: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, input = service.input
        return Prepared(step: .change { plan in try plan.unlocking(segment: try input.segmentIndex(params.segment, in: plan)) },
                        compute: service.legsLeavingTheCarBehind)
    }
}
