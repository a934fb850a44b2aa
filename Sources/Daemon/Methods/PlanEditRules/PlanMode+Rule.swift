import Foundation
import Planner
import WireProtocol

/// `plan.mode`'s rule: segment `segment` takes `mode` (and is locked); a stop the planner
/// inferred at one end is chosen again from the place at the other end, or, for a ride, from the
/// place across its street segment.
extension Params.PlanMode: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, input = service.input
        let mode = TravelMode(params.mode)
        let stops = await planner.accessStops(forModeChangeOf: try input.segmentIndex(params.segment, in: current), in: current)
        return Prepared(step: .change { plan in
            try plan.changingMode(ofSegment: try input.segmentIndex(params.segment, in: plan), to: mode, stopsAround: stops)
        })
    }
}
