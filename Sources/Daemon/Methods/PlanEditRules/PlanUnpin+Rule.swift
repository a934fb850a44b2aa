import Foundation
import Planner
import WireProtocol

/// `plan.unpin`'s rule: every pin removed; the stops a pin kept chosen again.
extension Params.PlanUnpin: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let planner = service.planner
        let stops = await planner.accessStops(aroundStopsKeptByPinsIn: current)  // the stops a pin kept are chosen again
        return Prepared(step: .change { $0.unpinning(stopsAround: stops) }, compute: service.legsLeavingTheCarBehind)
    }
}
