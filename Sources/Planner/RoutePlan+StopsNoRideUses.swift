import Foundation

extension RoutePlan {
    /// The rides an insert by transit puts next to a stop the planner inferred for a ride of
    /// its own: the new segment `segment` (a ride from or to the new place) and the planner's
    /// ride beyond the stop (unlocked) become one ride, the stop left out. Kept as two, the
    /// traveller rode to the stop chosen for the old neighbour to board the next ride there
    /// (issue 39 item 4: `plan insert … Keskustori --after 1 --mode transit` into Nekalantie →
    /// Koskikeskus rode to Keskustori and back to Riihitie, 61 m from the origin).
    /// Returns the plan and how many nodes before `segment` went (0 or 1).
    func joiningInsertedRide(at segment: Int) -> (plan: RoutePlan, nodesLeftOutBefore: Int) {
        guard (0..<segmentCount).contains(segment), modes[segment] == .transit else { return (self, 0) }
        let joined = joiningRides(at: segment, locking: false)
        return (joined.plan, segment - joined.ride)
    }

    /// Two rides of the planner's that an edit made meet at a stop it inferred (a removal took
    /// the walk between them, or a stop chosen again from the new neighbour went) are one ride,
    /// asked again as one: kept as two, one vehicle trip ran through both (trial 56 F7: after
    /// `plan remove` of Keskustori, bus 9 to Keskustori E and bus 9 on from there, where `plan
    /// new` rides it once; issue 39 item 3). A stop where rides met before the edit (a change
    /// refinement chose), a stay, the current location and a ride the user pinned or chose keep
    /// their segments. A ride the user only set to transit joins, its lock kept on the joined ride
    /// (trial 59b F2a: after `plan mode … transit` on the last walk, the removal of the place before
    /// it left bus 90C to the stop chosen for that place and on from there in a second segment).
    func joiningRidesNewlyMeeting(since old: RoutePlan) -> RoutePlan {
        let metBefore = Set(old.nodes.indices.filter { old.ridesMeet(at: $0) }.map { old.nodes[$0].place.id })
        var plan = self
        var index = 1
        while index < plan.nodes.count - 1 {
            let node = plan.nodes[index]
            guard node.isInferred, !node.isCurrentLocation, node.stay == nil, plan.ridesMeet(at: index),
                  !metBefore.contains(node.place.id),
                  ![index - 1, index].contains(where: { plan.isPinned(segment: $0) || plan.lock(ofSegment: $0)?.setsOnlyTheMode == false })
            else { index += 1; continue }
            let lock = SegmentLock.joiningRides(plan.lock(ofSegment: index - 1), plan.lock(ofSegment: index))
            if !plan.joinSegments(at: index, into: .transit, keeping: lock) { index += 1 }
        }
        return plan
    }

    /// Whether node `index` is between two transit segments.
    private func ridesMeet(at index: Int) -> Bool {
        index > 0 && index < nodes.count - 1 && modes[index - 1] == .transit && modes[index] == .transit
    }

    /// Every stop the planner inferred that no ride boards or leaves from any more (no transit
    /// segment on either side: an insert or a mode change walked the ride it was chosen for)
    /// goes: its two segments become one, asked again, as a new plan between its neighbours
    /// would be (issue 39 item 4: a walk via Koskipuisto D to Rautatieasema, 828 m where the
    /// direct walk is 550 m). The merged segment takes a lock's mode when either had one (the
    /// user set it), else the planner's (`mergedMode`; no drive after a ride). A stop with a stay
    /// (a visit), the current location, and one next to a pinned segment or a route the user
    /// chose (it goes to that stop) stay, as does one whose leaving out would put one place twice
    /// in a row.
    func leavingOutStopsNoRideUses() -> RoutePlan {
        var plan = self
        var index = 1
        while index < plan.nodes.count - 1 {
            let node = plan.nodes[index], before = index - 1
            guard node.isInferred, !node.isCurrentLocation, node.stay == nil,
                  plan.modes[before] != .transit, plan.modes[index] != .transit,
                  ![before, index].contains(where: { plan.isPinned(segment: $0) || plan.isChosenRoute(segment: $0) })
            else { index += 1; continue }
            let lockBefore = plan.lock(ofSegment: before), lockAfter = plan.lock(ofSegment: index)
            let merged = Self.mergedMode(plan.modes[before], lockBefore, plan.modes[index], lockAfter,
                                         carAtHand: plan.carLeft(before: before) == nil)
            let lock = lockBefore == nil && lockAfter == nil ? nil : SegmentLock(mode: merged)
            if !plan.joinSegments(at: index, into: merged, keeping: lock) { index += 1 }
        }
        return plan
    }
}
