import Foundation
import Planner
import WireProtocol

/// `plan.swap`'s rule: origin and destination swap.
extension Params.PlanSwap: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        return Prepared(step: .change { $0.swappingEnds() })
    }
}
