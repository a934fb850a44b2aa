import Foundation

/// A preset keeps the stops of a stretch the user decided in, and a ride of the planner's
/// between two of them can end where the stretch walks back to the stop the ride left from:
/// Ratina → Ratina P → bus to Keskustori P → walk back to Ratina (the stops were chosen for
/// Keskustori, the plan's old end, and Ratina was inserted again after them). Choosing the far
/// stop again from Ratina gives the ride's own other stop, so the ride only takes the traveller
/// away to walk back (issue 39 items 3 and 4). The preset leaves it out, as `plan mode` leaves
/// out a ride walked back (`RoutePlan.leavingOutARideWalkedBack`), keeping the stop the ride left
/// from: the segment beyond it may be the user's.
extension Planner {
    /// `plan` with each such ride left out (`RoutePlan.leavingOutRideWalkedBack(street:stopsAround:)`),
    /// in the stretches holding a decision; a place whose stops can't be asked leaves its ride.
    func leavingOutPresetRidesWalkedBack(in plan: RoutePlan) async -> RoutePlan {
        var result = plan
        // Each ride left out takes a node away: look again from the start, at most once a segment.
        for _ in 0..<plan.segmentCount {
            var changed = false
            for stretch in result.stretches() where result.holdsDecision(stretch) {
                for street in stretch {
                    for ride in [street + 1, street - 1] where result.ridesBack(ride, from: street) {
                        let place = ride > street ? street : street + 1
                        guard let stops = try? await accessStops(around: result.nodes[place].place) else { continue }
                        let left = result.leavingOutRideWalkedBack(ride, street: street, stopsAround: stops)
                        if left.nodes.count != result.nodes.count { result = left; changed = true; break }
                    }
                    if changed { break }
                }
                if changed { break }
            }
            if !changed { break }
        }
        return result
    }
}

extension RoutePlan {
    /// Whether segment `ride` is a ride of the planner's (unlocked, unpinned) between two inferred
    /// stops, next to street segment `street` (not transit, not pinned, not a route the user chose).
    func ridesBack(_ ride: Int, from street: Int) -> Bool {
        let segments = 0..<segmentCount
        guard segments.contains(ride), segments.contains(street), modes[ride] == .transit, modes[street] != .transit,
              !isLocked(segment: ride), !isPinned(segment: ride), !isPinned(segment: street),
              lock(ofSegment: street).map({ $0.duration == nil && $0.departure == nil }) != false else { return false }
        return [ride, ride + 1].allSatisfy { $0 > 0 && $0 < nodes.count - 1 && nodes[$0].isInferred && !nodes[$0].isCurrentLocation }
    }

    /// Ride `ride` next to street segment `street`, when the place at the street segment's other
    /// end would walk (`stops`: the stops around it) to the ride's other stop for a ride towards
    /// the ride's far end: the stop between them goes, and the ride and the street segment become
    /// one segment of the street segment's mode (its lock, a mode set by hand, kept) from that
    /// other stop. Unchanged otherwise, or when the user stays at the stop.
    func leavingOutRideWalkedBack(_ ride: Int, street: Int, stopsAround stops: AccessStops) -> RoutePlan {
        let direction = ride > street ? 1 : -1
        let stop = direction == 1 ? ride : ride + 1, otherStop = stop + direction
        let place = direction == 1 ? street : street + 1
        guard nodes[place].place.id == stops.place.id,
              let chosen = stops.stop(towards: nodes[farEnd(from: otherStop, direction: direction)].place),
              stops.isSameStop(chosen, nodes[otherStop].place) else { return self }
        var plan = self
        plan.joinSegments(at: stop, into: modes[street], keeping: lock(ofSegment: street))
        return plan
    }
}
