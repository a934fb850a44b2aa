import Foundation
import Planner
import WireProtocol

/// `plan.rename`'s rule: a title of the user's own; the plan otherwise kept.
extension Params.PlanRename: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self
        let title = try PlanService.title(params.title)
        // A change (the title is in the edit's first write, and in the plan the next edit
        // reads) that keeps the plan: only legs another edit left empty are computed.
        return Prepared(step: .change { $0 }, title: title)
    }
}
