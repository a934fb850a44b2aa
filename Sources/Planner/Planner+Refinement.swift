import Foundation

/// `refine(depth:)`: split segments where splitting helps, measured with real queries.
///
/// Each level first tries long walks, then long transit legs; the first split found is applied and
/// the result refined again with `depth - 1`. A segment is probed at most once per `refine` call,
/// locked segments are never probed, and each level probes at most
/// `configuration.maxSegmentsProbedPerLevel` segments, so one level makes at most
/// `configuration.maxQueriesPerRefinementLevel` routing queries (docs/planner.md, "Query budget").
extension Planner {
    /// Splits long walks and long transit legs where that is faster (see DESIGN.md "refine").
    /// Only segments whose legs are computed are considered; call `computeLegs` first.
    public func refine(_ plan: RoutePlan, depth: Int = 2) async throws -> RoutePlan {
        try await refineCounting(plan, depth: depth).plan
    }

    /// `refine`, also returning the number of routing queries it made (leg queries and stop lookups).
    public func refineCounting(_ plan: RoutePlan, depth: Int = 2) async throws -> (plan: RoutePlan, queries: Int) {
        var probed = Set<Int>()
        var queries = 0
        let refined = try await refine(plan, depth: depth, probed: &probed, queries: &queries)
        return (refined.emptyingTransitLegsRetimedBySplits(of: plan), queries)
    }

    /// `probed`: the indices of the segments of `plan` probed so far (indices, not keys: two
    /// walks between the same two places are two segments, each probed once).
    private func refine(_ plan: RoutePlan, depth: Int, probed: inout Set<Int>,
                        queries: inout Int) async throws -> RoutePlan {
        guard depth > 0 else { return plan }
        var budget = configuration.maxSegmentsProbedPerLevel
        var found = try await splittingLongWalk(plan, probed: &probed, budget: &budget, queries: &queries)
        if found == nil { found = try await splittingTransit(plan, probed: &probed, budget: &budget, queries: &queries) }
        guard let (split, segment) = found else { return plan }
        // The segments after the split one shift by the stops inserted; its pieces are new.
        let added = split.segmentCount - plan.segmentCount
        probed = Set(probed.compactMap { $0 < segment ? $0 : $0 > segment ? $0 + added : nil })
        return try await refine(split, depth: depth - 1, probed: &probed, queries: &queries)
    }

    // MARK: - Long walks

    /// A walk over `longWalkThreshold`: try walk → transit → walk via the stops where a transit
    /// journey for the whole walk boards and alights (else via the stops nearest each end, not
    /// within `candidateExclusionRadius` of the leg's ends) and insert the quickest if it saves at
    /// least `walkSplitMinimumGain`. Time is measured door to door, waiting included.
    private func splittingLongWalk(_ plan: RoutePlan, probed: inout Set<Int>, budget: inout Int,
                                   queries: inout Int) async throws -> (plan: RoutePlan, segment: Int)? {
        let times = plan.departureTimes(startingAt: clock.now())
        for index in 0..<plan.segmentCount where budget > 0 {
            guard plan.modes[index] == .walk, plan.isRefinable(segment: index), !probed.contains(index),
                  let walk = plan.legs[index], walk.expectedTravelTime > configuration.longWalkThreshold
            else { continue }
            probed.insert(index)
            budget -= 1
            let from = plan.nodes[index].place, to = plan.nodes[index + 1].place
            let start = times[index] ?? clock.now()
            // The transit engine knows which stops near each end lead somewhere useful: ask it
            // for the whole walk first and try the stops it boards and leaves at. Only when it
            // finds nothing are the nearest stops tried.
            queries += 1
            let direct = LegQuery(from: from, to: to, mode: .transit, timing: .departAt(start), pace: plan.pace, access: plan.access)
            var boardings: [Place] = [], alightings: [Place] = []
            if case .success(let journey) = try await leg(for: direct),
               let first = journey.rides.first?.boarding, let last = journey.rides.last?.alighting {
                // The same 150 m rule as for the nearest stops: a stop at the walk's own end splits nothing.
                boardings = [first.place]
                    .filter { !isTooClose($0, to: [from, to]) }
                alightings = [last.place]
                    .filter { !isTooClose($0, to: [from, to]) }
            }
            if boardings.isEmpty || alightings.isEmpty {
                queries += 2
                boardings = try await candidates(near: from.coordinate, radius: configuration.walkSplitStopRadius,
                                                 count: configuration.walkSplitCandidatesPerEnd, avoiding: [from, to])
                alightings = try await candidates(near: to.coordinate, radius: configuration.walkSplitStopRadius,
                                                  count: configuration.walkSplitCandidatesPerEnd, avoiding: [from, to])
            }
            guard !boardings.isEmpty, !alightings.isEmpty else { continue }

            var accessWalks: [String: RouteLeg] = [:]
            for stop in boardings {
                queries += 1
                let query = LegQuery(from: from, to: stop, mode: .walk, timing: .departAt(start), pace: plan.pace, access: plan.access)
                if case .success(let leg) = try await leg(for: query) { accessWalks[stop.id] = leg }
            }
            var egressWalks: [String: RouteLeg?] = [:]
            var best: (total: TimeInterval, boarding: Place, alighting: Place, legs: [RouteLeg])?
            for boarding in boardings {
                guard let access = accessWalks[boarding.id] else { continue }
                for alighting in alightings where alighting.id != boarding.id {
                    let atStop = start.addingTimeInterval(access.expectedTravelTime)
                    queries += 1
                    let rideQuery = LegQuery(from: boarding, to: alighting, mode: .transit,
                                             timing: .departAt(atStop), pace: plan.pace, access: plan.access)
                    guard case .success(let ride) = try await leg(for: rideQuery) else { continue }
                    let rideArrival = ride.arrival ?? atStop.addingTimeInterval(ride.expectedTravelTime)
                    if egressWalks[alighting.id] == nil {
                        queries += 1
                        let egressQuery = LegQuery(from: alighting, to: to, mode: .walk,
                                                   timing: .departAt(rideArrival), pace: plan.pace, access: plan.access)
                        if case .success(let leg) = try await leg(for: egressQuery) {
                            egressWalks[alighting.id] = .some(leg)
                        } else {
                            egressWalks[alighting.id] = .some(nil)
                        }
                    }
                    guard let egress = egressWalks[alighting.id] ?? nil else { continue }
                    let total = rideArrival.addingTimeInterval(egress.expectedTravelTime).timeIntervalSince(start)
                    if best.map({ total < $0.total }) ?? true {
                        best = (total, boarding, alighting, [access, ride, egress])
                    }
                }
            }
            // A split that would put one place twice in a row is skipped, not an error.
            if let best, best.total <= walk.expectedTravelTime - configuration.walkSplitMinimumGain,
               let split = try? plan.splitting(segment: index,
                                               via: [PlanNode(place: best.boarding, isInferred: true),
                                                     PlanNode(place: best.alighting, isInferred: true)],
                                               modes: [.walk, .transit, .walk], legs: best.legs) {
                return (split, index)
            }
        }
        return nil
    }

    // MARK: - Transit splits

    /// A transit leg over `transitSplitThreshold`: for up to `transitSplitCandidates` stops near
    /// the midpoint M, query A→M, then M→B departing at the first's arrival, and compare
    /// (arrival of the second − departure) with the direct leg. Split only if not slower at all, so
    /// a direct train, which would mean waiting for the next one at M, stays direct.
    private func splittingTransit(_ plan: RoutePlan, probed: inout Set<Int>, budget: inout Int,
                                  queries: inout Int) async throws -> (plan: RoutePlan, segment: Int)? {
        let times = plan.departureTimes(startingAt: clock.now())
        for index in 0..<plan.segmentCount where budget > 0 {
            guard plan.modes[index] == .transit, plan.isRefinable(segment: index), !probed.contains(index),
                  let direct = plan.legs[index], direct.expectedTravelTime > configuration.transitSplitThreshold
            else { continue }
            probed.insert(index)
            budget -= 1
            let from = plan.nodes[index].place, to = plan.nodes[index + 1].place
            let start = times[index] ?? direct.departure ?? clock.now()
            let budgetTime = (direct.arrival ?? start.addingTimeInterval(direct.expectedTravelTime)).timeIntervalSince(start)
            queries += 1
            let middles = try await candidates(near: from.coordinate.midpoint(to: to.coordinate),
                                               radius: configuration.transitSplitStopRadius,
                                               count: configuration.transitSplitCandidates, avoiding: [from, to])
            var best: (total: TimeInterval, middle: Place, legs: [RouteLeg])?
            for middle in middles {
                queries += 1
                let firstQuery = LegQuery(from: from, to: middle, mode: .transit, timing: .departAt(start), pace: plan.pace, access: plan.access)
                guard case .success(let first) = try await leg(for: firstQuery) else { continue }
                let connection = first.arrival ?? start.addingTimeInterval(first.expectedTravelTime)
                queries += 1
                let secondQuery = LegQuery(from: middle, to: to, mode: .transit, timing: .departAt(connection),
                                           pace: plan.pace, access: plan.access)
                guard case .success(let second) = try await leg(for: secondQuery) else { continue }
                let arrival = second.arrival ?? connection.addingTimeInterval(second.expectedTravelTime)
                let total = arrival.timeIntervalSince(start)
                // Strictly faster, and a real change at M: boarding the same trip again there
                // (the engine may) is the direct ride cut in two, never a better plan.
                guard total < budgetTime, !first.continuesOnSameTrip(into: second) else { continue }
                if best.map({ total < $0.total }) ?? true { best = (total, middle, [first, second]) }
            }
            if let best,
               let split = try? plan.splitting(segment: index, via: [PlanNode(place: best.middle, isInferred: true)],
                                               modes: [.transit, .transit], legs: best.legs) {
                return (split, index)
            }
        }
        return nil
    }

    /// Up to `count` stops near `coordinate`, nearest first, none within the exclusion radius of
    /// the places in `avoiding` (a stop at a leg's own end would not split it).
    private func candidates(near coordinate: Coordinate, radius: Double, count: Int,
                            avoiding ends: [Place]) async throws -> [Place] {
        guard count > 0 else { return [] }
        let found = try await stops(around: coordinate, radius: radius, limit: count * 3 + 2)
        var chosen: [Place] = []
        for stop in found where chosen.count < count {
            guard !isTooClose(stop, to: ends), !chosen.contains(where: { $0.id == stop.id }) else { continue }
            var candidate = stop
            if candidate.kind == nil { candidate.kind = .transitStop }
            chosen.append(candidate)
        }
        return chosen
    }

    /// Whether `stop` lies within `candidateExclusionRadius` of one of `ends`.
    private func isTooClose(_ stop: Place, to ends: [Place]) -> Bool {
        ends.contains { $0.coordinate.distance(to: stop.coordinate) <= configuration.candidateExclusionRadius }
    }
}

extension RouteLeg {
    /// Whether `next` starts by riding on the trip this leg's last ride is on (the same trip ID,
    /// or without IDs the same line and headsign leaving when this one arrives).
    func continuesOnSameTrip(into next: RouteLeg) -> Bool {
        guard let last = rides.last, let first = next.rides.first else { return false }
        if let a = last.tripID, let b = first.tripID { return a == b }
        return last.lineName == first.lineName && last.headsign == first.headsign
            && abs(first.boarding.time.timeIntervalSince(last.alighting.time)) <= RoutePlan.connectionSlack
    }
}

extension RoutePlan {
    /// Whether refinement may split segment `index`: not a decision of the user's (a lock, a
    /// pin, a chosen alternative, a pending update to answer).
    func isRefinable(segment index: Int) -> Bool {
        !isLocked(segment: index) && !isPinned(segment: index) && pendingUpdate(ofSegment: index) == nil
    }

    /// Replaces segment `index` by a chain through `stops`, with the legs already computed.
    func splitting(segment index: Int, via stops: [PlanNode], modes newModes: [TravelMode],
                   legs newLegs: [RouteLeg]) throws -> RoutePlan {
        try checkSegment(index)
        var newNodes = nodes
        newNodes.insert(contentsOf: stops, at: index + 1)
        for position in index...(index + stops.count) {
            try Self.checkNoSamePlaceTwice(newNodes, around: position)
        }
        var modes = self.modes
        modes.replaceSubrange(index...index, with: newModes)
        var legs = self.legs
        legs.replaceSubrange(index...index, with: newLegs.map { Optional($0) })
        var plan = self
        plan.replaceStructure(nodes: newNodes, modes: modes, legs: legs,
                              origins: Self.origins(count: segmentCount, replacing: index..<(index + 1), with: stops.count + 1))
        // Why the segment rides (ridden because faster than walking) stays with its ride.
        if let reason = note(ofSegment: index)?.mode, let ride = newModes.firstIndex(of: .transit) {
            plan.placeModeNote(reason, onSegment: index + ride)
        }
        return plan
    }
}
