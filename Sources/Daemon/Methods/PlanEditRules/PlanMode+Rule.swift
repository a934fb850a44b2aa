import Foundation
import Planner
import WireProtocol

/// `plan.mode`'s rule: segment `segment` takes `mode` (and is locked).
extension Params.PlanMode: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, input = service.input
        let mode = TravelMode(params.mode)
        return Prepared(step: .change { plan in
            try plan.changingMode(ofSegment: try input.segmentIndex(params.segment, in: plan), to: mode)
        })
    }
}
