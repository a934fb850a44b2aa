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
        let segments = 0..<segmentCount
        // (the new segment, the stop at its other end, the pinned ride across that stop)
        for (segment, stop, ride) in [(index, index + 1, index + 1), (index - 1, index - 1, index - 2)] {
            guard segments.contains(segment), segments.contains(ride), stop > 0, stop < nodes.count - 1,
                  modes[segment] == .transit, modes[ride] == .transit, isPinned(segment: ride), !isLocked(segment: segment),
                  nodes[stop].isInferred, !nodes[stop].isCurrentLocation else { continue }
            var newModes = plan.modes, newLegs = plan.legs
            newModes[segment] = .walk
            newLegs[segment] = nil
            plan.replaceStructure(nodes: plan.nodes, modes: newModes, legs: newLegs, origins: plan.sameSegments)
            plan.setModeNote(ride > segment ? "walked: the way to the pinned ride" : "walked: the way from the pinned ride",
                             ofSegment: segment)
        }
        return plan
    }
}
