import Foundation

/// Issue 39, "no walk-back to a farther stop of the same trip", for a pinned ride: the pin fixes
/// the vehicle (its trip), not the stop the traveller gets on or off at. After `plan insert …
/// Tesoma A --after 1` before bus 6 pinned at Rautatieasema C, the ride from Tesoma came to
/// Koskipuisto D and walked 332 m on to Rautatieasema C, although the same bus calls at
/// Koskipuisto D two minutes later: the stretch holds the pin, so the fresh-plan rule leaves
/// it, and the trip's-nearest-stops rule chose only unpinned rides' stops.
extension Planner {
    /// The walk beside a pinned ride the traveller makes to (from) its stop: where it starts
    /// (ends) away from the stop, and how long it takes.
    private struct WalkBesideTheRide {
        var place: Place
        var duration: TimeInterval
    }

    /// A stop of the pinned ride's trip and the walk to (from) it.
    private struct CallWalked {
        var call: TripCall
        var walk: TimeInterval
    }

    /// After the legs around the pins are filled (`fillAroundPins`), each pinned ride boards
    /// (alights) at the stop of its own trip the traveller walks to (from) instead, as the
    /// trip's-nearest-stops rule chooses an unpinned ride's stops (`choosingTheTripsNearestStops`),
    /// kept to what is no worse in every way: a stop the walk to is shorter and the traveller
    /// leaves for no earlier (a stop the walk from is shorter and gets them on no later), the same
    /// vehicle ridden. The walk is the segment beside the ride or the walk at the end of a ride
    /// beside it (that ride then goes to the stop chosen). Only beside a segment this run asked
    /// (an edit's): pinning the shown ride changes nothing else (session 57). The inferred node
    /// becomes that stop, its pin follows it (`replacingNode`) and is retimed to the call
    /// (`retimingPin`: the pin names the stop boarded), and the legs around the pins are filled
    /// again; the change stays only when the ride is still caught (nothing new proposed for it)
    /// and the walk is shorter in fact.
    /// - throws: only `CancellationError`.
    func choosingThePinnedTripsNearestStops(run: inout LegRun) async throws {
        for index in run.plan.pinnedSegmentIndices where run.plan.modes[index] == .transit {
            try await choosingThePinnedTripsStop(ofSegment: index, boarding: true, run: &run)
            try await choosingThePinnedTripsStop(ofSegment: index, boarding: false, run: &run)
        }
    }

    /// `choosingThePinnedTripsNearestStops` for the boarding (else alighting) stop of pinned segment `index`.
    private func choosingThePinnedTripsStop(ofSegment index: Int, boarding: Bool, run: inout LegRun) async throws {
        let plan = run.plan, node = boarding ? index : index + 1, beside = boarding ? index - 1 : index + 1
        guard beside >= 0, beside < plan.segmentCount, node > 0, node < plan.nodes.count - 1, run.asked.contains(beside),
              !isMissed(index, in: plan), Self.isTheirsToChoose(node: node, besides: beside, in: plan),
              let leg = plan.legs[index], !leg.walksToAnotherStop(at: boarding ? .access : .egress),
              let ride = boarding ? leg.rides.first : leg.rides.last, let walk = Self.walk(beside: node, boarding: boarding, in: plan),
              walk.duration > 0 else { return }
        let calls = await routing.calls(ofTripOf: ride)
        guard let (boardAt, alightAt) = Self.calls(of: ride, in: calls) else { return }
        let stop = boarding ? ride.boarding : ride.alighting
        let straight = walk.place.coordinate.distance(to: stop.coordinate)
        let positions = boarding ? Array(0..<alightAt).filter { $0 != boardAt && calls[$0].canBoard }
            : Array((boardAt + 1)..<calls.count).filter { $0 != alightAt && calls[$0].canAlight }
        // Nearer in a straight line first; the few nearest walked on the streets.
        let nearer = positions.map { calls[$0] }.filter { $0.coordinate.distance(to: walk.place.coordinate) < straight }
            .sorted { $0.coordinate.distance(to: walk.place.coordinate) < $1.coordinate.distance(to: walk.place.coordinate) }
            .prefix(Self.tripStopsAskedOnTheStreets)
        guard !nearer.isEmpty else { return }
        var walked: [CallWalked] = []
        for call in nearer {
            if call.coordinate.distance(to: walk.place.coordinate) <= configuration.endIsStopMetres {
                walked.append(CallWalked(call: call, walk: 0))
                continue
            }
            let (from, to) = boarding ? (walk.place, call.place) : (call.place, walk.place)
            let query = LegQuery(from: from, to: to, mode: .walk, timing: .departAt(boarding ? stop.time : call.arrival),
                                 pace: plan.pace, access: plan.access)
            run.queryCount += 1
            if case .success(let street) = try await self.leg(for: query) { walked.append(CallWalked(call: call, walk: street.expectedTravelTime)) }
        }
        // No worse in every way: a shorter walk, leaving the place no earlier for the boarding
        // stop (getting there no later from the alighting one); of those, the latest (earliest),
        // then the shortest walk.
        let lateness = { (candidate: CallWalked) -> TimeInterval in
            boarding ? candidate.call.departure.timeIntervalSince(stop.time) - candidate.walk + walk.duration
                : stop.time.timeIntervalSince(candidate.call.arrival) - candidate.walk + walk.duration
        }
        guard let chosen = walked.filter({ $0.walk < walk.duration && lateness($0) >= 0 })
            .max(by: { (lateness($0), -$0.walk) < (lateness($1), -$1.walk) }) else { return }
        var changed = plan
        guard changed.replacingNode(node, with: chosen.call.place) else { return }
        let ridden = boarding ? leg.ridingTheSameTrips(boardingAt: chosen.call, alightingAt: nil)
            : leg.ridingTheSameTrips(boardingAt: nil, alightingAt: chosen.call)
        changed.legs[index] = ridden
        changed.retimingPin(ofSegment: index, to: ridden, departingAt: ridden.departure ?? chosen.call.departure)
        changed.legs[beside] = nil
        let before = run
        run.plan = changed
        try await fillAroundPins(run: &run)
        let now = Self.walk(beside: node, boarding: boarding, in: run.plan)
        // Nothing new proposed for it (a proposal made before, for the stop it leaves, goes with it).
        let proposed = run.plan.pending[run.plan.segmentKey(index)]?.proposal, proposedBefore = plan.pending[plan.segmentKey(index)]?.proposal
        guard run.plan.legs[beside] != nil, !isMissed(index, in: run.plan), proposed == proposedBefore,
              run.plan.legs[index]?.tripIDs == leg.tripIDs, (now?.duration ?? 0) < walk.duration else {
            let queries = run.queryCount
            run = before
            run.queryCount = queries
            return
        }
    }

    /// Whether the traveller misses pinned segment `index` or a segment before it, leaving when they may.
    private func isMissed(_ index: Int, in plan: RoutePlan) -> Bool {
        let start = plan.earliestDeparture(now: clock.now()) ?? .distantPast
        return plan.missedConnection(leavingAt: start).map { $0 <= index } ?? false
    }

    /// The walk beside node `node` to the ride boarding there (`boarding`; else from the ride
    /// alighting there): the walk segment on its other side, or the walk at the end (start) of
    /// the ride on that side; nil for anything else (a drive, no leg). Its duration is 0 where
    /// the ride on that side stops at the node.
    private static func walk(beside node: Int, boarding: Bool, in plan: RoutePlan) -> WalkBesideTheRide? {
        let segment = boarding ? node - 1 : node
        guard (0..<plan.segmentCount).contains(segment), let leg = plan.legs[segment] else { return nil }
        let far = boarding ? plan.nodes[node - 1].place : plan.nodes[node + 1].place
        if leg.mode == .walk { return WalkBesideTheRide(place: far, duration: leg.expectedTravelTime) }
        guard leg.mode == .transit, let ride = boarding ? leg.rides.last : leg.rides.first else { return nil }
        let stop = boarding ? ride.alighting : ride.boarding
        let step = leg.walks.last { $0.kind == (boarding ? .egress : .access) }
        return WalkBesideTheRide(place: stop.place, duration: step?.duration ?? 0)
    }
}
