import Foundation

/// A ride's walks to and from its stops, as a new plan has them: a transit plan from a place
/// walks to the stop chosen for it (an inferred node) and rides from there (`Planner.initialPlan`
/// builds every new transit plan so). A segment set to transit by hand rides from the door, the
/// engine timing the walk to its stop; but from a place whose nearest stop is beyond the engine's
/// access radius the engine finds nothing, where a new plan walks to that stop (issue 39, session
/// 57: `plan mode ID 2 walk` then `plan mode ID 2 transit` said "no transit stop within 800 m of
/// the destination" where the new plan rode buses 6 and 10 and walked 1.0 km from Trikookuja).
/// Such an end walks to its stop by the same function as a new plan.
extension RoutePlan {
    /// Segment `ride` with a walk from its start to `boarding` before it and one from `alighting`
    /// to its end after it, each stop an inferred node (none for a nil stop, nor for a stop that
    /// is the place at the ride's other end). Both the same stop: unchanged, one ride between the
    /// places, as a new plan has it. The ride keeps its lock; the walks are the planner's.
    /// Returns the plan and the ride's segment.
    func walkingToItsStops(ride: Int, boarding: Place?, alighting: Place?) -> (plan: RoutePlan, ride: Int) {
        guard (0..<segmentCount).contains(ride) else { return (self, ride) }
        if let boarding, let alighting, boarding.id == alighting.id { return (self, ride) }
        let start = nodes[ride].place.id, end = nodes[ride + 1].place.id
        let boarding = boarding.flatMap { $0.id == start || $0.id == end ? nil : $0 }
        let alighting = alighting.flatMap { $0.id == start || $0.id == end ? nil : $0 }
        guard boarding != nil || alighting != nil else { return (self, ride) }
        var rideNodes = [nodes[ride]], rideModes: [TravelMode] = []
        if let boarding {
            rideNodes.append(PlanNode(place: boarding, isInferred: true))
            rideModes.append(.walk)
        }
        rideModes.append(.transit)
        if let alighting {
            rideNodes.append(PlanNode(place: alighting, isInferred: true))
            rideModes.append(.walk)
        }
        let lock = lock(ofSegment: ride)
        var plan = self
        plan.replaceStructure(nodes: Array(nodes[..<ride]) + rideNodes + nodes[(ride + 1)...],
                              modes: Array(modes[..<ride]) + rideModes + modes[(ride + 1)...],
                              legs: Array(legs[..<ride]) + Array(repeating: nil, count: rideModes.count) + legs[(ride + 1)...],
                              origins: Self.origins(count: segmentCount, replacing: ride..<(ride + 1), with: rideModes.count))
        let moved = boarding == nil ? ride : ride + 1
        if let lock { plan.locks[plan.segmentKey(moved)] = lock }
        return (plan, moved)
    }

    /// Segment `ride`, set to transit by hand: each end of it that is a place the engine reaches
    /// no stop from walks to the stop a new plan walks to from there (`AccessStops.stopBeyondTheEnginesReach`;
    /// `stops`: the stops around the ride's ends), towards the place the user chose beyond its
    /// other end. An end the engine reaches keeps the ride from the door. A pinned ride keeps its
    /// leg as the user chose it. Returns the plan and the ride's segment.
    func walkingToStopsBeyondTheEnginesReach(ofRide ride: Int, from stops: [AccessStops]) -> (plan: RoutePlan, ride: Int) {
        guard (0..<segmentCount).contains(ride), modes[ride] == .transit, !isPinned(segment: ride) else { return (self, ride) }
        func stop(at end: Int, towards far: Int) -> Place? {
            guard let around = stops.first(where: { $0.place.id == nodes[end].place.id }) else { return nil }
            return around.stopBeyondTheEnginesReach(towards: nodes[far].place)
        }
        return walkingToItsStops(ride: ride, boarding: stop(at: ride, towards: farEnd(from: ride + 1, direction: 1)),
                                 alighting: stop(at: ride + 1, towards: farEnd(from: ride, direction: -1)))
    }

    /// The rides leaving and reaching the place of `stops` (a node just inserted), each walking
    /// to its stop where the engine reaches none from that place (`walkingToStopsBeyondTheEnginesReach(ofRide:from:)`):
    /// `plan insert … --mode transit` of such a place asked the engine from the door and found
    /// no ride ("no transit stop within 800 m of the destination"), where a new plan walks to it.
    func walkingToStopsBeyondTheEnginesReach(ofRidesAt stops: AccessStops) -> RoutePlan {
        guard let at = nodes.firstIndex(where: { $0.place.id == stops.place.id }) else { return self }
        var plan = self
        if at < plan.segmentCount { plan = plan.walkingToStopsBeyondTheEnginesReach(ofRide: at, from: [stops]).plan }
        if at > 0 { plan = plan.walkingToStopsBeyondTheEnginesReach(ofRide: at - 1, from: [stops]).plan }
        return plan
    }
}
