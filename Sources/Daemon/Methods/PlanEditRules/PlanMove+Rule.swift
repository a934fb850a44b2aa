import Foundation
import Planner
import WireProtocol

/// `plan.move`'s rule: node `node` replaced by a place searched as every command searches (`near` when given); one region.
extension Params.PlanMove: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, input = service.input, regions = service.regions
        let resolver = service.resolver
        // The node as numbered now only says where to search near; the move takes the node
        // of that number in the plan it changes.
        let shownNode = try input.nodeIndex(params.node, in: current)
        let near = try await resolver.nearPlace(params.near, region: params.region)
        // Looked up as every command looks a name up (`PlaceResolver.nearness`), not near the old node.
        let resolved = try await resolver.resolve(params.place, near: near?.place.coordinate,
                                                  region: params.region,
                                                  planRegion: regions.regionName(of: current))
        let node = resolved.node
        let stops = try? await planner.accessStops(around: node.place)  // the stops next to it are chosen again
        // Each hop the move makes is walked only when walking is no slower (`Planner.movedHops`),
        // asked of the plan as it came in (the move drops the pins it reads); a plan changed
        // meanwhile keeps its modes.
        let hops = try await planner.movedHops(shownNode, to: node.place, in: current)
        return Prepared(step: .change { plan in
            let index = try input.nodeIndex(params.node, in: plan)
            let same = index == shownNode && plan.nodes == current.nodes && plan.modes == current.modes
            let moved = try plan.movingNode(at: index, to: node.place, stopsAround: stops, hops: same ? hops : [])
            _ = try regions.planRegion(through: moved.nodes.map(\.place))  // one region, as for insert
            return moved
        }, matched: [resolved] + (near.map { [$0] } ?? []), modeNotes: { moved in
            // Numbered as the plan is shown: its stops chosen again and its rides computed.
            current.movedHopLines(hops, movedNode: shownNode, in: moved)
        }, compute: service.legsLeavingTheCarBehind)
    }
}
