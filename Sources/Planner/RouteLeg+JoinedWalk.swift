import Foundation

/// A pinned ride joined with the walk to (from) its stop (`RoutePlan.joiningRides`, `plan mode …
/// transit` on that walk): the user's ride stays as they chose it, and the walk becomes its
/// access (egress) walk, as the street router measured it. Asked again instead, the engine would
/// time its own estimate of that walk and may not re-find the pinned trip from the walk's start.
extension RouteLeg {
    /// This transit leg with `walk` (a walk leg from `place` to `stop`, the leg's start) as the
    /// first of its access walks (a walk of its own from `stop` to the boarding stop stays after
    /// it; a 0 m one goes), leaving as late as the ride allows; nil when the leg has no time.
    func joiningAccessWalk(_ walk: RouteLeg, from place: Place, to stop: Place) -> RouteLeg? {
        guard mode == .transit, walk.mode == .walk, let departure else { return nil }
        let start = departure.addingTimeInterval(-walk.expectedTravelTime)
        var joined = joiningDistanceAndAccess(of: walk)
        joined.walks.removeAll { $0.kind == .access && $0.distance < 1 }
        joined.walks.insert(TransitWalkStep(kind: .access, fromName: place.name, from: place.coordinate, toName: stop.name,
                                            to: stop.coordinate, start: start, duration: walk.expectedTravelTime,
                                            distance: walk.distance ?? place.coordinate.distance(to: stop.coordinate)), at: 0)
        joined.departure = start
        return joined
    }

    /// This transit leg with `walk` (a walk leg from `stop`, the leg's end, to `place`) as the last
    /// of its egress walks (a 0 m one goes); nil when the leg has no time.
    func joiningEgressWalk(_ walk: RouteLeg, from stop: Place, to place: Place) -> RouteLeg? {
        guard mode == .transit, walk.mode == .walk, let arrival else { return nil }
        var joined = joiningDistanceAndAccess(of: walk)
        joined.walks.removeAll { $0.kind == .egress && $0.distance < 1 }
        joined.walks.append(TransitWalkStep(kind: .egress, fromName: stop.name, from: stop.coordinate, toName: place.name,
                                            to: place.coordinate, start: arrival, duration: walk.expectedTravelTime,
                                            distance: walk.distance ?? stop.coordinate.distance(to: place.coordinate)))
        joined.arrival = arrival.addingTimeInterval(walk.expectedTravelTime)
        return joined
    }

    /// The leg's duration, distance and step-free access with `walk`'s added.
    private func joiningDistanceAndAccess(of walk: RouteLeg) -> RouteLeg {
        var joined = self
        joined.expectedTravelTime += walk.expectedTravelTime
        joined.distance = distance.map { $0 + (walk.distance ?? 0) }
        if let own = accessibility, let other = walk.accessibility { joined.accessibility = LegAccessibility.least(of: [own, other]) }
        return joined
    }
}
