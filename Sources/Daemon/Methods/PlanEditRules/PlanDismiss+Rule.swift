import Foundation
import Planner
import WireProtocol

/// `plan.dismiss`'s rule: the pending update of `segment` dismissed.
extension Params.PlanDismiss: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, input = service.input
        return Prepared(step: .change { plan in
            try plan.dismissingPendingUpdate(ofSegment: try input.segmentIndex(params.segment, in: plan))
        })
    }
}
