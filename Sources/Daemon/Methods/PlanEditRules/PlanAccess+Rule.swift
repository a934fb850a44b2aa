import Foundation
import Planner
import WireProtocol

/// `plan.access`'s rule: the step-free setting set.
extension Params.PlanAccess: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self
        let access = AccessNeed(params.access)
        return Prepared(step: .change { $0.settingAccess(access) })
    }
}
