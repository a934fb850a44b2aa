import Foundation
import Planner
import WireProtocol

/// `plan.refine`'s rule: long walks and transit legs split where that is faster, `depth` 1 to 4; a
/// computation of its own.
extension Params.PlanRefine: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, here = service.location.current?.coordinate
        let depth = params.depth ?? 2
        guard (1...4).contains(depth) else { throw DaemonError.invalidParams("depth must be 1 to 4, got \(depth)") }
        return Prepared(step: .compute { plan in
            let computed = try await planner.computeLegsReporting(plan, currentLocation: here)
            let refined = try await planner.refine(computed.plan, depth: depth)
            // What a split moved in time is judged as every edit's computation is.
            return try await planner.judgingWhatTheEditComputed(try await planner.computeLegsReporting(refined, currentLocation: here),
                                                                currentLocation: here)
        })
    }
}
