import Foundation

extension RoutePlan {
    /// The stops the planner inferred beside pinned ride `index` become the stops `leg` (the
    /// pinned ride, re-found or as the user chose it) boards and alights at: an inferred stop is
    /// where a ride of the plan boards or alights, and beside a pinned ride it is that ride's
    /// stop. After `plan insert … Pyynikintori` chose the stop again from Pyynikintori, the node
    /// read Pyynikintori F, which bus 6 does not pass, and the pinned leg walked 15 min on to
    /// Koskipuisto D: the traveller was sent to a stop no ride uses (trial 50 finding 3). The node
    /// moves (still inferred; its decisions follow it, `replacingNode`), the leg is trimmed to
    /// start (end) there, and the segment on the node's other side is emptied, to be asked again
    /// to the new stop (a pinned walk keeps its far end and is re-timed by the caller). A node
    /// the user chose, the current location, and a node across which the user chose a route
    /// stay (the leg then walks from the node to its stop: `Planner.reachingItsOwnStops`); so
    /// does a node within `sameStopMetres` of the stop (the same stop, placed a few metres apart).
    /// - returns: the plan, the leg and the segments emptied (at most `index - 1` and `index + 1`).
    func takingThePinnedRidesStops(of leg: RouteLeg, ofSegment index: Int, sameStopMetres: Double)
        -> (plan: RoutePlan, leg: RouteLeg, emptied: [Int]) {
        guard modes[index] == .transit, leg.mode == .transit, let first = leg.rides.first, let last = leg.rides.last
        else { return (self, leg, []) }
        var plan = self, leg = leg, emptied: [Int] = []
        func canMove(_ node: Int, to stop: Place, across street: Int) -> Bool {
            node > 0 && node < nodes.count - 1 && (0..<segmentCount).contains(street)
                && nodes[node].isInferred && !nodes[node].isCurrentLocation && !isChosenRoute(segment: street)
                && nodes[node].place.id != stop.id
                && nodes[node].place.coordinate.distance(to: stop.coordinate) > sameStopMetres
        }
        let boarding = first.boarding.place, alighting = last.alighting.place
        if canMove(index, to: boarding, across: index - 1), plan.replacingNode(index, with: boarding) {
            leg = leg.startingAtFirstBoarding()
            emptied.append(index - 1)
        }
        if canMove(index + 1, to: alighting, across: index + 1), plan.replacingNode(index + 1, with: alighting) {
            leg = leg.endingAtLastAlighting()
            emptied.append(index + 1)
        }
        for segment in emptied { plan.legs[segment] = nil }
        plan.legs[index] = leg
        return (plan, leg, emptied)
    }

    /// Pinned segment `index`, re-found leaving at another time than pinned (its trip boarded at
    /// an earlier stop of it) or re-timed from a moved stop: its pin and the departure the user
    /// chose (the lock) follow `leg`, so that the plan says when it now leaves and the next
    /// recompute asks from there.
    mutating func retimingPin(ofSegment index: Int, to leg: RouteLeg, departingAt departure: Date) {
        let key = segmentKey(index)
        guard var pin = pins[key] else { return }
        pin.departure = leg.departure ?? departure
        pin.duration = leg.expectedTravelTime
        pin.leg = leg
        pins[key] = pin
        if var lock = locks[key], lock.departure != nil {
            lock.departure = pin.departure
            lock.duration = pin.duration
            locks[key] = lock
        }
    }
}
