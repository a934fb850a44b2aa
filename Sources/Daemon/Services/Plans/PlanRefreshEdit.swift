import Foundation
import Planner

/// `plan.refresh`'s rule: every leg is asked again with the current routing data (e.g. after a
/// region was re-imported with a newer feed). Modes, locks and inserted stops stay; a pinned
/// departure is re-found by its trip or fingerprint, or kept with a pending update. The
/// method's params and the background refresh both run it.
struct PlanRefreshEdit: PlanEditRule {
    var planID: Int64
    var expectedGeneration: Int64? = nil
    var name: String { "plan.refresh" }

    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        PlanService.Prepared(step: .change { $0.refreshing() })
    }
}
