import Foundation
import Planner
import WireProtocol

/// `plan.pace`'s rule: the walking pace set (or the next one).
extension Params.PlanPace: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self
        guard let wirePace = params.pace.pace else { return Prepared(step: .change { $0.cyclingPace() }) }
        let pace = WalkingPace(wirePace)
        return Prepared(step: .change { $0.settingPace(pace) })
    }
}
