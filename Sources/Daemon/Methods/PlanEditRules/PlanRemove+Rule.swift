import Foundation
import Planner
import WireProtocol

/// `plan.remove`'s rule: node `node` removed; the stops next to it chosen again.
extension Params.PlanRemove: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, input = service.input
        // The stops next to the node are chosen again from the neighbours it leaves.
        let shown = try input.nodeIndex(params.node, in: current)
        let stops = await planner.accessStops(aroundNeighboursOf: shown, in: current)
        return Prepared(step: .change { plan in
            try plan.removingNode(at: try input.nodeIndex(params.node, in: plan), stopsAround: stops)
        }, compute: service.legsLeavingTheCarBehind)
    }
}
