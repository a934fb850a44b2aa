import Foundation
import Planner
import WireProtocol

/// `plan.pin`'s rule: the departure at `time` (or of `line`) asked of the planner, stored only if the
/// plan is still the one it was asked for.
extension Params.PlanPin: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, input = service.input, regions = service.regions
        let segment = try input.segmentIndex(params.segment, in: current)
        let zone = regions.timeZone(of: current)
        let departure = try params.time.map {
            try input.time($0, param: "time", timeZone: zone, day: current.schedule()[segment] ?? input.planDay(current))
        }
        _ = try regions.requireRegions()
        let pinned: RoutePlan
        if let line = params.line {
            pinned = try await planner.pinning(current, segment: segment, line: line, at: departure)
        } else if let departure {
            pinned = try await planner.pinning(current, segment: segment, at: departure)
        } else {
            throw DaemonError.invalidParams("give time, line, or both")
        }
        return Prepared(step: .change { plan in
            guard plan == current else { throw DaemonError.conflict("another edit changed the plan while pinning; nothing was changed, try again") }
            return pinned
        })
    }
}
