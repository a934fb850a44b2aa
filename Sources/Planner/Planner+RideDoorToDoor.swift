import Foundation

/// A ride the walk rule weighs against a walk, door to door. Asked from place to place, the
/// engine searches stops within its radius of each end only: a place 1.0 km from its nearest
/// stop had none, and a walk judged again at 08:40 said "no transit route found" where bus 10
/// runs and a new plan rides it (trial 55 finding 4a). Then it is asked as a new plan asks it:
/// a walk to the stop nearest each end that has one and the ride between (`initialPlan`).
extension RoutePlan {
    /// The plan with segment `index` ridden as `ride` was asked: through its stops when it
    /// walked to them (legs empty, to be computed), else the segment set to transit. Returns the
    /// plan and the segment of the ride.
    func riding(_ index: Int, as ride: Planner.RideDoorToDoor) -> (plan: RoutePlan, ride: Int) {
        var plan = self
        guard !ride.stops.isEmpty, let offset = ride.modes.firstIndex(of: .transit) else {
            plan.setMode(.transit, at: index)
            plan.legs[index] = nil
            return (plan, index)
        }
        plan.replaceStructure(nodes: Array(nodes[...index]) + ride.stops + nodes[(index + 1)...],
                              modes: Array(modes[..<index]) + ride.modes + modes[(index + 1)...],
                              legs: Array(legs[..<index]) + Array(repeating: nil, count: ride.modes.count) + legs[(index + 1)...],
                              origins: Self.origins(count: segmentCount, replacing: index..<(index + 1), with: ride.modes.count))
        return (plan, index + offset)
    }
}

extension Planner {
    /// The ride judged: door to door in seconds from `start` (its waits included), its transit
    /// leg, and how far it walks in all; nil figures when none is found.
    struct RideDoorToDoor {
        var riding: TimeInterval?
        var leg: RouteLeg?
        var walks: Double?
        /// Asked through the stops a new plan walks to: the nodes between the two ends and the
        /// modes from one end to the other (empty: asked from place to place).
        var stops: [PlanNode] = []
        var modes: [TravelMode] = []
    }

    /// The ride from `from` to `to` leaving at `start`: asked from place to place, else, when no
    /// stop is within reach of an end, through the stops a new plan walks to.
    func rideDoorToDoor(from: Place, to: Place, leavingAt start: Date, pace: WalkingPace, access: AccessNeed) async throws
        -> RideDoorToDoor {
        let query = LegQuery(from: from, to: to, mode: .transit, timing: .departAt(start), pace: pace, access: access)
        switch try await leg(for: query) {
        case .success(let ride):
            return RideDoorToDoor(riding: ride.arrival?.timeIntervalSince(start) ?? ride.expectedTravelTime, leg: ride,
                                  walks: ride.walks.reduce(0) { $0 + $1.distance })
        case .failure(.unsupportedInRegion(_)):
            let plan = try await computeLegs(try await initialPlan(from: PlanNode(place: from), to: PlanNode(place: to), mode: .transit,
                                                                    timePreference: .departAt(start), pace: pace, access: access,
                                                                    currentLocation: nil))
            guard plan.segmentCount > 1, let ride = plan.legs.compactMap({ $0 }).first(where: { $0.mode == .transit }),
                  plan.legs.allSatisfy({ $0 != nil }), let arrival = plan.schedule(startingAt: start).last ?? nil
            else { return RideDoorToDoor() }
            let streets = plan.legs.compactMap { $0 }.filter { $0.mode != .transit }.reduce(0) { $0 + ($1.distance ?? 0) }
            return RideDoorToDoor(riding: arrival.timeIntervalSince(start), leg: ride,
                                  walks: streets + ride.walks.reduce(0) { $0 + $1.distance },
                                  stops: Array(plan.nodes.dropFirst().dropLast()), modes: plan.modes)
        case .failure:
            return RideDoorToDoor()
        }
    }

    /// `walkedDistances(of:against:)` of a ride judged door to door (its walks to and from the stops included).
    static func walkedDistances(of ride: RideDoorToDoor, against walk: RouteLeg?) -> WalkedDistances? {
        guard let walks = ride.walks, let walking = walk?.distance, walking > 0, ride.leg?.rides.isEmpty == false else { return nil }
        return WalkedDistances(riding: walks, walking: walking)
    }
}
