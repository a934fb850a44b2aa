import Foundation

/// The modes of the hops a moved node makes (`plan move`), by the rule of inserted hops,
/// presets and day plans: a hop is walked only when walking is no slower, else it rides, and
/// it says why. A hop whose mode the user chose keeps it.
extension Planner {
    /// How one stretch next to a moved node goes (a stretch: the segments from one of the user's
    /// nodes to the next, through the stops the planner inferred), and why in the words the
    /// answer shows.
    public struct MovedHop: Sendable, Equatable {
        /// The stretch's segments, numbered as in the plan before the move (a move keeps them).
        public var stretch: Range<Int>
        /// `.walk`: one walk from end to end; `.transit`: a ride.
        public var mode: TravelMode
        /// Why (`ModeNote`: walked because no slower, ridden because faster); nil when neither a
        /// walk nor a ride was found.
        public var reason: ModeNote?
    }

    /// The hops that moving node `index` of `plan` to `place` (`RoutePlan.movingNode`) makes:
    /// each stretch from or to the moved node that walks or rides and holds nothing of the
    /// user's is asked a walk and a ride from end to end, leaving when the traveller is at its
    /// start (the stretch before the node first; two queries a stretch), and is walked when the
    /// walk is no slower door to door (waiting included), else ridden. Read from the plan
    /// before the move: the move drops the pins and chosen departures of the segments it
    /// touches (keeping only their locks' modes), and a mode the user chose (a lock, a pin)
    /// stays theirs. A stretch with a drive or a bike ride (the
    /// vehicle is at hand), a stay at a stop in it, or an end the planner inferred is left as
    /// it is (no hop for it), and so is a walk with a drive after it (a ride there would leave
    /// the car behind: a car after a ride is only ever the user's).
    /// - throws: `PlannerError` for a move `movingNode` refuses, `CancellationError`.
    public func movedHops(_ index: Int, to place: Place, in plan: RoutePlan) async throws -> [MovedHop] {
        let moved = try plan.movingNode(at: index, to: place)
        let now = clock.now()
        let ready = plan.readyToLeave(now: now)
        var hops: [MovedHop] = []
        var arrival: Date?  // at the moved node, when the stretch before it was asked
        for stretch in moved.stretches() where stretch.upperBound == index || stretch.lowerBound == index {
            let judged = stretch.allSatisfy { [.walk, .transit].contains(moved.modes[$0]) } && !plan.holdsDecision(stretch)
                && !moved.nodes[stretch.lowerBound].isInferred && !moved.nodes[stretch.upperBound].isInferred
                && !stretch.dropFirst().contains { moved.nodes[$0].stay != nil }
            let start: Date
            if stretch.lowerBound == index, let arrival {
                start = moved.nodes[index].leaving(arrivedAt: arrival)
            } else {
                start = ready[stretch.lowerBound] ?? plan.earliestDeparture(now: now) ?? now
            }
            arrival = nil
            guard judged else { continue }
            let inherited: TravelMode = stretch.contains { moved.modes[$0] == .transit } ? .transit : .walk
            // A walk before a drive stays a walk: the car is never driven after a ride.
            guard inherited == .transit || !moved.modes[stretch.upperBound...].contains(.car) else { continue }
            let hop = try await fasterOfWalkAndRide(from: moved.nodes[stretch.lowerBound].place, to: moved.nodes[stretch.upperBound].place,
                                                    leavingAt: start, plan: plan, inherited: inherited)
            hops.append(MovedHop(stretch: stretch, mode: hop.mode, reason: hop.reason))
            arrival = hop.duration.map { start.addingTimeInterval($0) }
        }
        return hops
    }
}

extension RoutePlan {
    /// Stretch `hop.stretch` (of this plan, the move made) as `Planner.movedHops` chose it: walked,
    /// it becomes one walk from end to end (the stops the planner inferred in it left out, its
    /// leg asked again); ridden, a walk becomes one ride (its stops inferred when computed, as an
    /// inserted ride's are); a stretch that has the mode chosen keeps its segments. None is
    /// locked: presets may change it. Why it has its mode is noted once the stops next to the
    /// moved node are chosen again (`notingMovedHops`). Returns how many nodes went.
    @discardableResult
    mutating func takeMovedHop(_ hop: Planner.MovedHop) -> Int {
        let stretch = hop.stretch
        let rides = stretch.contains { modes[$0] == .transit }
        // The mode it has: a ride through stops keeps them (they are chosen again from the new place).
        guard hop.mode == .walk ? rides || stretch.count > 1 : !rides else { return 0 }
        var newNodes = nodes, newModes = modes, newLegs = legs
        newNodes.removeSubrange((stretch.lowerBound + 1)..<stretch.upperBound)
        newModes.replaceSubrange(stretch, with: [hop.mode])
        newLegs.replaceSubrange(stretch, with: [nil])
        replaceStructure(nodes: newNodes, modes: newModes, legs: newLegs,
                         origins: Self.origins(count: segmentCount, replacing: stretch, with: 1))
        return stretch.count - 1
    }

    /// Each taken hop's reason on the segment that says it, once the stops next to own node
    /// `ordinal` (the moved node at `movedNode` when the hops were asked) are chosen again.
    mutating func notingMovedHops(_ hops: [Planner.MovedHop], movedNode: Int, ordinal: Int) {
        noting(hops.map { ($0.side(of: movedNode), $0.reason) }, nextToOwnNode: ordinal)
    }

    /// The answer's words for the hops `movingNode(at: movedNode, …, hops:)` of this plan took,
    /// as `moved` (its result, computed) numbers its segments (`hopLines`).
    public func movedHopLines(_ hops: [Planner.MovedHop], movedNode: Int, in moved: RoutePlan) -> [String] {
        moved.hopLines(hops.compactMap { hop in hop.reason.map { (hop.side(of: movedNode), $0) } },
                       nextToOwnNode: ownNodes(before: movedNode))
    }
}

extension Planner.MovedHop {
    /// Which side of the moved node (`node`, as numbered when the hop was asked) its stretch lies.
    func side(of node: Int) -> RoutePlan.HopSide { stretch.upperBound == node ? .before : .after }
}
