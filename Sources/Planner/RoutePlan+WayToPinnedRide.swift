import Foundation

extension RoutePlan {
    /// After an insert by transit next to the stop the planner inferred for a pinned ride: the
    /// new segment between the inserted place (node `index`) and that stop is walked. Ridden, it
    /// is asked to get there by the pinned departure and takes the very vehicle the pin boards,
    /// one trip in two segments (issue 39, trial 48 finding 8: bus 10 in segments 5 and 6). The
    /// traveller leaves the inserted place on foot to the pinned ride, as the walk to its stop
    /// was before the insert (and rejoins a pinned ride they alighted from the same way); the
    /// stop is then chosen again from the inserted place (`choosingAccessStopsAgain`).
    func walkingTheWayToPinnedRides(besides index: Int) -> RoutePlan {
        var plan = self
        // The new segment, to (from) the stop at its other end.
        for (segment, way) in [(index, ModeNote.Kind.wayToPinnedRide), (index - 1, .wayFromPinnedRide)] {
            guard (0..<segmentCount).contains(segment), modes[segment] == .transit, !isLocked(segment: segment),
                  wayToPinnedRide(of: segment) == way else { continue }
            var newModes = plan.modes, newLegs = plan.legs
            newModes[segment] = .walk
            newLegs[segment] = nil
            plan.replaceStructure(nodes: plan.nodes, modes: newModes, legs: newLegs, origins: plan.sameSegments)
            plan.setModeNote(ModeNote(way), ofSegment: segment)
        }
        return plan
    }

    /// Whether segment `segment` leads to (from) a pinned ride across a stop the planner inferred:
    /// the note of the walk there (`wayToPinnedRide`, else `wayFromPinnedRide`), or nil. Ridden,
    /// the segment would board (leave) the pinned vehicle itself.
    func wayToPinnedRide(of segment: Int) -> ModeNote.Kind? {
        // (the stop at the segment's other end, the pinned ride across it, the walk's note)
        for (stop, ride, way) in [(segment + 1, segment + 1, ModeNote.Kind.wayToPinnedRide), (segment, segment - 1, .wayFromPinnedRide)]
        where (0..<segmentCount).contains(ride) && stop > 0 && stop < nodes.count - 1 && modes[ride] == .transit
            && isPinned(segment: ride) && nodes[stop].isInferred && !nodes[stop].isCurrentLocation {
            return way
        }
        return nil
    }

    /// The same rule for every pinned ride, after an edit that makes an unlocked ride meet one
    /// at the stop the planner inferred for it without an insert: a pin or a chosen option next
    /// to a ride the user inserted by transit beside that stop (seeds 23, 26 and 29 of
    /// `TravellableEditSequenceTests`), or a removal that joins the walk to that stop with the
    /// ride before the removed place (seeds 2 and 19). Ridden, it would be asked to get to the
    /// stop by the pinned departure (to leave when the pinned ride arrives) and take the pinned
    /// vehicle itself; the traveller walks there, as they did to the stop before the edit. The
    /// stop stays the pinned ride's own (`takingThePinnedRidesStops`).
    func walkingTheWaysToPinnedRides() -> RoutePlan {
        pinnedSegmentIndices.reduce(self) { plan, pinned in
            plan.walkingTheWayToPinnedRides(besides: pinned - 1).walkingTheWayToPinnedRides(besides: pinned + 2)
        }
    }

    /// The plan without the notes "walked: the way to (from) the pinned ride" whose ride across
    /// their stop is no longer pinned (unpinned, or an edit took its segment and the pin with
    /// it): a note naming a pin goes with the pin (trial 56 finding 10: "the way from the pinned
    /// ride" stayed on a plan with no pins). The walk stays, as any walk to a stop.
    func forgettingWaysToPinsGone() -> RoutePlan {
        var plan = self
        for segment in 0..<segmentCount {
            let ride: Int
            switch note(ofSegment: segment)?.mode?.kind {
            case .wayToPinnedRide?: ride = segment + 1
            case .wayFromPinnedRide?: ride = segment - 1
            default: continue
            }
            if !isPinned(segment: ride) { plan.setModeNote(nil, ofSegment: segment) }
        }
        return plan
    }
}
