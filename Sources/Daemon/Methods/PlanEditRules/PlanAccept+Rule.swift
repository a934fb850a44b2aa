import Foundation
import Planner
import WireProtocol

/// `plan.accept`'s rule: the pending update of `segment` taken.
extension Params.PlanAccept: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, input = service.input
        return Prepared(step: .change { plan in
            try plan.acceptingPendingUpdate(ofSegment: try input.segmentIndex(params.segment, in: plan))
        })
    }
}
