import Foundation

extension Planner {
    /// The user's pinned leg, kept because its trip was not re-found, as it is travelled from
    /// the segment's own ends: an edit chose the pinned ride's stop again for a new neighbour
    /// (`chooseAccessStopAgain(…, movingPins: true)`), and the leg still boards where the user
    /// chose it. Shown as it was, the node read "Solja" while the ride boarded at Sorin aukio C,
    /// 10 km away, with a 0 m walk (issue 39, trial 48 F8). So the walk from the node to the stop
    /// the ride boards at becomes the leg's access walk (and from where it alights to the node
    /// after it, its egress walk), as the street router measures it: the pinned ride boards at
    /// its own stop, the traveller is seen to miss it when they can't get there in time, and the
    /// proposal is asked from the node. A node within `endIsStopMetres` of the stop (the same
    /// stop) or a walk that can't be found leaves the leg as it is.
    func reachingItsOwnStops(_ selected: RouteLeg, ofSegment index: Int, in plan: RoutePlan) async throws
        -> (leg: RouteLeg, queries: Int) {
        guard selected.mode == .transit, let first = selected.rides.first, let last = selected.rides.last else { return (selected, 0) }
        var leg = selected, queries = 0
        func isAway(_ place: Place, from stop: Place) -> Bool {
            place.id != stop.id && place.coordinate.distance(to: stop.coordinate) > configuration.endIsStopMetres
        }
        func walk(from: Place, to: Place) async throws -> RouteLeg? {
            queries += 1
            let asked = LegQuery(from: from, to: to, mode: .walk, timing: .departAt(leg.departure ?? clock.now()),
                                 pace: plan.pace, access: plan.access)
            guard case .success(let walk) = try await self.leg(for: asked) else { return nil }
            return walk
        }
        let start = plan.nodes[index].place, end = plan.nodes[index + 1].place
        let boarding = first.boarding.place, alighting = last.alighting.place
        if !leg.walks.contains(where: { $0.kind == .access && $0.distance >= 1 }), isAway(start, from: boarding),
           let walk = try await walk(from: start, to: boarding), let joined = leg.joiningAccessWalk(walk, from: start, to: boarding) {
            leg = joined
        }
        if !leg.walks.contains(where: { $0.kind == .egress && $0.distance >= 1 }), isAway(end, from: alighting),
           let walk = try await walk(from: alighting, to: end), let joined = leg.joiningEgressWalk(walk, from: alighting, to: end) {
            leg = joined
        }
        return (leg, queries)
    }
}
