import Foundation

extension RoutePlan {
    /// After an edit put a new place in node `index` (an insert or a move): the stops the
    /// planner inferred next to it for a ride were chosen from the old neighbour, and walking
    /// to them from the new place can mean walking back past the ride (issue 39 item 4). Each
    /// such stop (inferred, not the current location, reached by a street segment from `index`,
    /// with an unpinned ride on its other side) is chosen again from the new place by the rule
    /// of a new plan (`stops`: the stops around the new place); its ride's leg is emptied. When
    /// the new place needs no stop (it is one, or none is near), the stop is left out and the
    /// ride starts (ends) at the new place, as a new plan from it would. A node the user chose
    /// is never changed.
    func choosingAccessStopsAgain(nextTo index: Int, from stops: AccessStops) -> RoutePlan {
        guard nodes.indices.contains(index) else { return self }
        return choosingAccessStopsAgain(across: index, from: [stops], movingPins: true)
            .choosingAccessStopsAgain(across: index - 1, from: [stops], movingPins: true)
            .leavingOutTheStopARideFromHereServes(index, from: stops)
    }

    /// A ride from (to) node `index`, a new place, to (from) an inferred stop whose street
    /// segment serves the place beyond it: when the new place is no farther from that place than
    /// the stop is, or would walk to that very stop for a ride towards it (it was moved onto or
    /// next to the place the stop serves), the ride only takes the traveller to a stop to walk
    /// back from. The stop is left out and the two segments become one ride to that place (the
    /// engine walks it when walking is no slower), as a new plan between two places sharing a
    /// stop is (issue 39 item 1).
    private func leavingOutTheStopARideFromHereServes(_ index: Int, from stops: AccessStops) -> RoutePlan {
        var plan = self
        for direction in [1, -1] {
            guard plan.nodes.indices.contains(index), plan.nodes[index].place.id == stops.place.id else { break }
            let ride = direction == 1 ? index : index - 1, stop = index + direction, street = direction == 1 ? index + 1 : index - 2
            let segments = 0..<plan.segmentCount
            guard segments.contains(ride), segments.contains(street), stop > 0, stop < plan.nodes.count - 1,
                  plan.modes[ride] == .transit, plan.modes[street] != .transit,
                  !plan.isPinned(segment: ride), !plan.isPinned(segment: street),
                  plan.nodes[stop].isInferred, !plan.nodes[stop].isCurrentLocation else { continue }
            let served = plan.nodes[stop + direction].place, here = plan.nodes[index].place
            let nearer = here.coordinate.distance(to: served.coordinate) <= plan.nodes[stop].place.coordinate.distance(to: served.coordinate)
            guard nearer || stops.stop(towards: served).map({ stops.isSameStop($0, plan.nodes[stop].place) }) == true else { continue }
            plan.leaveOutAccessStop(stop, street: street, ride: ride)
        }
        return plan
    }

    /// After an unpin: a stop kept through an edit because its ride was pinned (the ride was
    /// the user's departure from there) may have been chosen for a neighbour that is gone.
    /// Each inferred stop at an end of a ride in `rides` (the segments that were pinned) that is
    /// not one of the stops around the place across its street segment (`stops`) is chosen
    /// again from that place; a stop among them (the one the ride really used, say) is kept.
    func choosingStopsKeptByPinsAgain(rides: [Int], from stops: [AccessStops]) -> RoutePlan {
        var plan = self
        // From the last ride back, so that a stop left out does not shift the rides still to do.
        for ride in rides.sorted(by: >) {
            for (stop, street, beyond) in [(ride + 1, ride + 1, ride + 2), (ride, ride - 1, ride - 1)] {
                guard (0..<plan.segmentCount).contains(ride), plan.modes[ride] == .transit,
                      (0..<plan.segmentCount).contains(street), plan.nodes.indices.contains(beyond),
                      stop > 0, stop < plan.nodes.count - 1, plan.nodes[stop].isInferred,
                      let around = stops.first(where: { $0.place.id == plan.nodes[beyond].place.id }),
                      !around.stops.contains(where: { around.isSameStop($0, plan.nodes[stop].place) }) else { continue }
                plan.chooseAccessStopAgain(at: stop, street: street, ride: ride, from: around)
            }
        }
        return plan
    }

    /// The same for segment `segment` whose ends became neighbours (a node between them was
    /// removed, or one of them is new): a stop inferred at one end is chosen again from the
    /// place at the other end, when `stops` holds the stops around that place. Without
    /// `leavingOutWhenNone`, a stop with none to take its place is kept rather than left out;
    /// with `movingPins` (a place put next to the stop: insert, move, removal), a pinned ride's
    /// stop is chosen again too (`chooseAccessStopAgain`).
    func choosingAccessStopsAgain(across segment: Int, from stops: [AccessStops], leavingOutWhenNone: Bool = true,
                                  movingPins: Bool = false) -> RoutePlan {
        guard (0..<segmentCount).contains(segment) else { return self }
        var plan = self
        if let around = stops.first(where: { $0.place.id == nodes[segment].place.id }) {
            plan.chooseAccessStopAgain(at: segment + 1, street: segment, ride: segment + 1, from: around,
                                       leavingOutWhenNone: leavingOutWhenNone, movingPins: movingPins)
        }
        if plan.nodes.count == nodes.count, let around = stops.first(where: { $0.place.id == nodes[segment + 1].place.id }) {
            plan.chooseAccessStopAgain(at: segment, street: segment, ride: segment - 1, from: around,
                                       leavingOutWhenNone: leavingOutWhenNone, movingPins: movingPins)
        }
        return plan
    }

    /// Street segment `street`, just set to `mode` by hand, from (to) an inferred stop whose
    /// unlocked ride starts (ends) at the very stop the place at its other end would walk to
    /// (Rautatieasema P → Pyynikki P, then the walk set by hand from Pyynikki P back to
    /// Rautatieasema): the ride only takes the traveller away to walk back. Its two stops are
    /// left out and the ride, the street segment beyond it (unlocked) and `street` become one
    /// segment of `mode`, locked, as the user set it.
    func leavingOutARideWalkedBack(from street: Int, mode: TravelMode, stopsAround stops: [AccessStops]) -> RoutePlan {
        for (stop, ride, otherStop, beyond, here) in [(street + 1, street + 1, street + 2, street + 2, street),
                                                      (street, street - 1, street - 1, street - 2, street + 1)] {
            let segments = 0..<segmentCount
            guard segments.contains(ride), segments.contains(beyond), segments.contains(street),
                  [stop, otherStop].allSatisfy({ $0 > 0 && $0 < nodes.count - 1 && nodes[$0].isInferred && !nodes[$0].isCurrentLocation
                      && nodes[$0].stay == nil }),
                  modes[ride] == .transit, !isLocked(segment: ride), !isPinned(segment: ride),
                  !isLocked(segment: beyond), !isPinned(segment: beyond),
                  let around = stops.first(where: { $0.place.id == nodes[here].place.id }),
                  let chosen = around.stop(towards: nodes[beyond < street ? beyond : beyond + 1].place),
                  around.isSameStop(chosen, nodes[otherStop].place) else { continue }
            var newNodes = nodes
            newNodes.remove(at: max(stop, otherStop))
            newNodes.remove(at: min(stop, otherStop))
            guard (try? Self.checkNoSamePlaceTwice(newNodes, around: min(stop, otherStop) - 1)) != nil else { continue }
            let first = min(street, beyond)
            var newModes = modes, newLegs = legs
            newModes.replaceSubrange(first...(first + 2), with: [mode])
            newLegs.replaceSubrange(first...(first + 2), with: [nil])
            var plan = self
            plan.replaceStructure(nodes: newNodes, modes: newModes, legs: newLegs,
                                  origins: Self.origins(count: segmentCount, replacing: first..<(first + 3), with: 1))
            plan.locks[plan.segmentKey(first)] = SegmentLock(mode: mode)
            return plan
        }
        return self
    }

    /// Chooses inferred node `stop` again from `stops` (its neighbour across segment `street`),
    /// for the ride of segment `ride` on its other side. With `movingPins` (the edit put a new
    /// place next to the stop), a pinned ride's stop is chosen again too, its pin carried to it (never left out: the pin needs its stop): the recompute re-finds
    /// the pinned trip from the new stop, and when the traveller can't catch it there the pin is
    /// missed and the next ride they can catch from that stop proposed, not a walk back to the
    /// stop chosen for the old neighbour (issue 39 item 4: a 9.7 km walk back to Sorin aukio C).
    mutating func chooseAccessStopAgain(at stop: Int, street: Int, ride: Int, from stops: AccessStops,
                                        leavingOutWhenNone: Bool = true, movingPins: Bool = false) {
        let segments = 0..<segmentCount
        guard stop > 0, stop < nodes.count - 1, segments.contains(street), segments.contains(ride),
              nodes[stop].isInferred, !nodes[stop].isCurrentLocation,
              modes[street] != .transit, modes[ride] == .transit,
              !isPinned(segment: street), movingPins || !isPinned(segment: ride) else { return }
        let far = farEnd(from: stop, direction: ride > street ? 1 : -1)
        let pinned = pin(ofSegment: ride)
        if let chosen = stops.stop(towards: nodes[far].place) {
            // The same stop (the place index and the timetable may place it a few metres
            // apart): kept as it is, with its ride.
            guard !stops.isSameStop(chosen, nodes[stop].place) else { return }
            if replacingNode(stop, with: chosen) {  // the pin follows the node
                legs[ride] = nil
                legs[street] = nil
                return
            }
        }
        if leavingOutWhenNone, pinned == nil { leaveOutAccessStop(stop, street: street, ride: ride) }
    }

    /// Node `stop` goes; its street segment and its ride become one ride (the ride's lock, if
    /// any, kept), asked again. Nothing changes when that would join a place to itself or the
    /// user set a stay there.
    mutating func leaveOutAccessStop(_ stop: Int, street: Int, ride: Int) {
        joinSegments(at: stop, into: .transit, keeping: lock(ofSegment: ride))
    }

    /// Inferred node `stop` goes and the two segments beside it become one of `mode` (`lock`
    /// kept on it), its leg asked again. False, and nothing changed, when that would put one
    /// place twice in a row or the user stays at the stop (a visit).
    @discardableResult
    mutating func joinSegments(at stop: Int, into mode: TravelMode, keeping lock: SegmentLock?) -> Bool {
        guard nodes[stop].stay == nil else { return false }
        var newNodes = nodes
        newNodes.remove(at: stop)
        guard (try? Self.checkNoSamePlaceTwice(newNodes, around: stop)) != nil else { return false }
        let first = stop - 1
        var newModes = modes, newLegs = legs
        newModes.replaceSubrange(first...(first + 1), with: [mode])
        newLegs.replaceSubrange(first...(first + 1), with: [nil])
        replaceStructure(nodes: newNodes, modes: newModes, legs: newLegs,
                         origins: Self.origins(count: segmentCount, replacing: first..<(first + 2), with: 1))
        if let lock { locks[segmentKey(first)] = lock }
        return true
    }

    /// The ride's far end as a new plan sees it: from node `index`, the next node the user chose
    /// in `direction` (+1 or -1), or the plan's end that way.
    func farEnd(from index: Int, direction: Int) -> Int {
        var far = index
        while far > 0, far < nodes.count - 1, nodes[far].isInferred { far += direction }
        return far
    }
}
