import Foundation
import Planner
import WireProtocol

/// `plan.mode`'s rule: segment `segment` takes `mode` (and is locked); a stop the planner
/// inferred at one end is chosen again from the place at the other end, or, for a ride, from the
/// place across its street segment. Set to transit, walk or bike, the drives the planner chose
/// after it are walked or ridden instead (`Planner.judgingDrivesWithoutTheCar`: the car is not
/// at hand where the traveller left it behind).
extension Params.PlanMode: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, input = service.input
        let mode = TravelMode(params.mode)
        let index = try input.segmentIndex(params.segment, in: current)
        let stops = await planner.accessStops(forModeChangeOf: index, in: current)
        let now = planner.clock.now()
        let change = { @Sendable (plan: RoutePlan) throws -> RoutePlan in
            try plan.changingMode(ofSegment: try input.segmentIndex(params.segment, in: plan), to: mode, stopsAround: stops, now: now)
        }
        // Segments joined by the change renumber the ones after: the answer says so (docs/planner.md).
        let renumbering = { @Sendable (changed: RoutePlan) -> [String] in current.renumberingLines(after: changed, changedSegment: index) }
        // Only a ride put before the planner's drives, or kept apart from a pin its walk would miss
        // (whose ride must not board the pinned vehicle), asks more than the change.
        let drivesAfter = current.modes.indices.contains { $0 > index && current.modes[$0] == .car && !current.isLocked(segment: $0) }
        guard mode == .transit else {
            // Walked or cycled, the segment leaves the car behind: the planner's drives after it are judged again.
            return Prepared(step: .change(change), modeNotes: renumbering,
                            compute: mode != .car && drivesAfter ? service.legsLeavingTheCarBehind : nil)
        }
        let legs = service.legs, location = service.location
        guard drivesAfter || planner.keepsAPinApart(settingTransit: index, in: current, stopsAround: stops) else {
            return Prepared(step: .change(change), modeNotes: renumbering)
        }
        return Prepared(step: .compute { plan in
            let computed = try await planner.settingTransitByHand(ofSegment: try input.segmentIndex(params.segment, in: plan), in: plan,
                                                                  stopsAround: stops, compute: legs)
            return try await planner.judgingDrivesWithoutTheCar(in: computed, currentLocation: location.current?.coordinate)
        }, modeNotes: renumbering)
    }
}
