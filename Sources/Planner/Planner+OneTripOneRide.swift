import Foundation

/// One vehicle trip is one ride (issue 39 item 3): two segments never ride the same trip, one
/// alighting at a stop the planner inferred and the next boarding the same vehicle there again
/// (paid twice, and told to get off a bus that goes on). Whatever edit led there, the engine
/// may answer so: refining an arrive-by plan split bus 31 at Hatanpään vt 31 and the recompute
/// timed back from the end took the same bus into the stop and out of it (trial 59b F2b); a
/// removal left the ride to the stop chosen for the removed place meeting the ride the user set
/// to transit, both on bus 90C (trial 59b F2a).
extension Planner {
    /// `computed` with each stop the planner inferred between two rides on one vehicle trip left
    /// out, the two segments one ride asked again (`RoutePlan.joiningOneTripSplitAtAStop`), until
    /// none is left. The joined ride keeps the lock either had (its mode, the stops avoided).
    /// - throws: only `CancellationError`.
    func ridingEachTripAsOneRide(_ computed: LegComputation, sharing share: StreetLegShare?) async throws -> LegComputation {
        var current = computed
        // Each join leaves out a node, so this ends.
        while let join = current.plan.joiningOneTripSplitAtAStop() {
            try Task.checkCancellation()
            let ride = join.ride
            var again = try await computeLegsOnce(join.plan, currentLocation: nil, sharing: share)
            again.queryCount += current.queryCount
            // What the first pass retimed stays due for the judgements after it, renumbered past the join.
            again.retimed.formUnion(current.retimed.compactMap { $0 < ride ? $0 : $0 > ride + 1 ? $0 - 1 : nil } + [ride])
            current = again
        }
        return current
    }
}

extension RoutePlan {
    /// The plan with the first stop the planner inferred where the ride before it and the ride
    /// after it share a vehicle trip (by ID, or the same line leaving when it arrives) left out,
    /// the two segments one transit segment with an empty leg, and that segment; nil when there
    /// is none. A stop with a stay (a visit), the current location, and a ride pinned or chosen
    /// among alternatives (the user's departure: `walkingTheWaysToPinnedRides` keeps the way to
    /// it) are left as they are.
    func joiningOneTripSplitAtAStop() -> (plan: RoutePlan, ride: Int)? {
        for stop in 1..<max(1, nodes.count - 1) {
            let before = stop - 1, after = stop
            guard nodes[stop].isInferred, !nodes[stop].isCurrentLocation, nodes[stop].stay == nil,
                  modes[before] == .transit, modes[after] == .transit,
                  let first = legs[before], let second = legs[after], first.sharesATrip(with: second),
                  [before, after].allSatisfy({ !isPinned(segment: $0) && lock(ofSegment: $0)?.setsOnlyTheMode != false })
            else { continue }
            var plan = self
            guard plan.joinSegments(at: stop, into: .transit, keeping: SegmentLock.joiningRides(lock(ofSegment: before), lock(ofSegment: after)))
            else { continue }
            return (plan, before)
        }
        return nil
    }
}

extension RouteLeg {
    /// Whether this leg and `next` ride one vehicle trip: a trip ID in both, or `next` starting
    /// on the trip this leg ends on.
    func sharesATrip(with next: RouteLeg) -> Bool {
        !Set(tripIDs).isDisjoint(with: next.tripIDs) || continuesOnSameTrip(into: next)
    }
}

extension SegmentLock {
    /// Whether the user decided only the mode (and the stops avoided), no departure, duration
    /// or lines: a ride so locked may be joined with another, keeping its lock.
    var setsOnlyTheMode: Bool { departure == nil && duration == nil && chosenLines.isEmpty }

    /// The lock of one ride joined from two whose locks set only the mode: transit, the stops
    /// either avoided; nil when neither was locked.
    static func joiningRides(_ first: SegmentLock?, _ second: SegmentLock?) -> SegmentLock? {
        let locks = [first, second].compactMap { $0 }
        guard !locks.isEmpty else { return nil }
        var avoided: [Coordinate] = []
        for stop in locks.flatMap(\.avoidedStops) where !avoided.contains(stop) { avoided.append(stop) }
        return SegmentLock(mode: .transit, avoidedStops: avoided)
    }
}
