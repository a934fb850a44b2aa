import Foundation

extension RoutePlan {
    /// Segment `ride`, just set to transit by hand (and joined with the planner's rides beside
    /// it), or joined by `plan remove` with the ride from the removed place: a stop the planner
    /// inferred at either end was chosen for a ride that is not this one, for a place that is
    /// gone, or for a place that has since moved (a drive between two stops made a ride after its origin
    /// moved walked 6.3 km to the old boarding stop). Each such stop reached by a street segment
    /// is chosen again from the place across that segment towards the ride's far end, by the rule
    /// of a new plan (`chooseAccessStopAgain`; `stops`: the stops around those places). A stop
    /// with none to take its place is left out when its street segment is the planner's (the ride
    /// then starts at the place), kept when the user locked it. A route the user chose for the
    /// street segment (a walk or drive among its alternatives) keeps its stop: the route goes to
    /// it, and the choice is the user's.
    func choosingARidesEndStopsAgain(_ ride: Int, from stops: [AccessStops]) -> RoutePlan {
        var plan = self
        // The stop after the ride first, so that the ride keeps its number.
        for (stop, street, beyond) in [(ride + 1, ride + 1, ride + 2), (ride, ride - 1, ride - 1)] {
            guard (0..<plan.segmentCount).contains(street), plan.nodes.indices.contains(beyond),
                  plan.lock(ofSegment: street).map({ $0.mode != .transit && $0.duration != nil }) != true,
                  let around = stops.first(where: { $0.place.id == plan.nodes[beyond].place.id }) else { continue }
            plan.chooseAccessStopAgain(at: stop, street: street, ride: ride, from: around,
                                       leavingOutWhenNone: !plan.isLocked(segment: street))
        }
        return plan
    }
}

extension Planner {
    /// The stops around both ends of segment `index` and around the nearest place the user chose
    /// beyond each end that is an inferred stop (for `RoutePlan.changingMode(ofSegment:to:stopsAround:)`:
    /// a ride set by hand chooses its stops again from those places); a place whose stops can't be
    /// asked has none listed (the stop across from it is then kept).
    public func accessStops(forModeChangeOf index: Int, in plan: RoutePlan) async -> [AccessStops] {
        var found = await accessStops(aroundEndsOfSegment: index, in: plan)
        for (end, direction) in [(index, -1), (index + 1, 1)] where plan.nodes.indices.contains(end) && plan.nodes[end].isInferred {
            let beyond = plan.farEnd(from: end, direction: direction)
            guard beyond != end, !found.contains(where: { $0.place.id == plan.nodes[beyond].place.id }) else { continue }
            if let stops = try? await accessStops(around: plan.nodes[beyond].place) { found.append(stops) }
        }
        return found
    }
}
