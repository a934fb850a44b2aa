import Foundation
import Planner
import WireProtocol

/// `plan.refresh`'s rule: every leg asked again (`PlanRefreshEdit`, the background refresh's rule too).
extension Params.PlanRefresh: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self
        return try await PlanRefreshEdit(planID: params.id).prepare(on: current, with: service)
    }
}
