import Foundation
import Planner
import WireProtocol

/// `plan.insert`'s rule: a place searched as every command searches (`near` when given) and put after node `after`, its hops' modes
/// chosen when the user gave none; one region.
extension Params.PlanInsert: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, regions = service.regions, resolver = service.resolver
        let typedPlaces = service.typedPlaces
        let mode = params.mode.map(TravelMode.init)
        try Self.checkInsertPosition(params.after, in: current)
        let near = try await resolver.nearPlace(params.near, region: params.region)
        // Looked up as every command looks a name up (`PlaceResolver.nearness`), not near node `after`.
        let resolved = try await resolver.resolve(params.place, near: near?.place.coordinate,
                                                  region: params.region, planRegion: regions.regionName(of: current))
        let node = resolved.node
        let typed = typedPlaces.typed(params.place, resolved: node.place)
        // Without the user's mode, each hop is walked only when walking is no slower
        // (`Planner.insertedHops`), asked of the plan as it came in; a plan whose
        // neighbours changed meanwhile keeps the split segment's mode.
        let hops = mode == nil ? try await planner.insertedHops(node, at: params.after, in: current) : []
        let stops = try? await planner.accessStops(around: node.place)  // the stops next to it are chosen again
        let neighbours = Self.neighbours(ofInsertAfter: params.after, in: current)
        let change = { @Sendable (plan: RoutePlan) throws -> RoutePlan in
            try Self.checkInsertPosition(params.after, in: plan)
            let same = Self.neighbours(ofInsertAfter: params.after, in: plan) == neighbours
            let inserted = try plan.insertingNode(node, at: params.after, mode: mode,
                                                  hopModes: same && !hops.isEmpty ? hops.map(\.mode) : nil, hopNotes: hops.map(\.reason), stopsAround: stops)
            _ = try regions.planRegion(through: inserted.nodes.map(\.place))  // one region
            return inserted
        }
        // Walked or ridden to the new place, the traveller leaves the car behind for the planner's
        // drives after it; an insert by car is the user's drive, judged by no one.
        return Prepared(step: .change(change), typed: typed.map { [$0] } ?? [], matched: [resolved] + (near.map { [$0] } ?? []),
                        modeNotes: { inserted in current.insertedHopLines(hops, at: params.after, in: inserted) },
                        compute: mode == .car ? nil : service.legsLeavingTheCarBehind)
    }

    /// `plan.insert`'s `after`: a node of the plan (after the last, the place becomes the destination).
    static func checkInsertPosition(_ after: Int, in plan: RoutePlan) throws {
        guard (1...plan.nodes.count).contains(after) else {
            throw DaemonError.invalidParams("after must be 1 to \(plan.nodes.count) (after the last node, the place becomes the destination)")
        }
    }

    /// The places either side of where `plan.insert` puts a node after node `after` (1-based),
    /// and the mode of the segment it splits: the modes chosen for the new hops hold only
    /// while these are the same.
    static func neighbours(ofInsertAfter after: Int, in plan: RoutePlan) -> [String] {
        let places = [after - 1, after].filter(plan.nodes.indices.contains).map { plan.nodes[$0].place.id }
        let split = min(after - 1, plan.segmentCount - 1)
        return places + (plan.modes.indices.contains(split) ? [plan.modes[split].rawValue] : [])
    }
}
