import Foundation
import Planner
import WireProtocol

/// `plan.preset`'s rule: the preset built on every unlocked stretch (after a new access setting); a
/// computation of its own.
extension Params.PlanPreset: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, here = service.location.current?.coordinate
        let preset = PlanPreset(params.preset)
        let access = params.access.map(AccessNeed.init)
        return Prepared(step: .compute { plan in
            // A new access setting first: the preset then builds its legs with it.
            let plan = access.map(plan.settingAccess) ?? plan
            return LegComputation(plan: try await planner.applyingPreset(preset, to: plan, currentLocation: here),
                                  failures: [], queryCount: 0)
        })
    }
}
