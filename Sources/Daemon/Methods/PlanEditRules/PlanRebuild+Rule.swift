import Foundation
import Planner
import WireProtocol

/// `plan.rebuild`'s rule: the plan built again from its two ends with the preset; a computation of its own.
extension Params.PlanRebuild: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, here = service.location.current?.coordinate
        let preset = PlanPreset(params.preset)
        return Prepared(step: .compute { plan in
            LegComputation(plan: try await planner.rebuild(plan, preset: preset, currentLocation: here), failures: [], queryCount: 0)
        })
    }
}
