import Foundation

/// Presets and day plans walk a hop where walking is no slower (issue 39 item 3): the rule of
/// an inserted hop (`walkOrRide`), applied to every stretch the planner chose to ride.
extension Planner {
    /// `computed` with each stretch between two of the user's nodes that the planner rides
    /// (a transit segment in it, nothing of the user's: no lock, no pin, no stay at a stop)
    /// walked from end to end when the walk takes no longer than the stretch door to door
    /// (waiting included, from when the traveller leaves its start), or when the ride found no
    /// route and a walk exists. A walked stretch says why (`SegmentNote.mode`) and the plan is
    /// computed again (the legs after it may leave earlier), and its ridden stretches judged
    /// again. One walk query a ridden stretch a round.
    /// - throws: only `CancellationError`.
    func walkingHopsNoSlower(in computed: LegComputation, currentLocation: Coordinate?) async throws -> LegComputation {
        let plan = computed.plan
        let leaving = plan.readyToLeave(now: clock.now()), arriving = plan.schedule(startingAt: clock.now())
        var nodes = [plan.nodes[0]], modes: [TravelMode] = [], legs: [RouteLeg?] = [], origins: [Int?] = []
        var walked: [(segment: Int, reason: String?)] = [], queries = 0
        for stretch in plan.stretches() {
            let ridden = stretch.contains { plan.modes[$0] == .transit } && !plan.holdsDecision(stretch)
                && !stretch.dropFirst().contains { plan.nodes[$0].stay != nil }
            if ridden {
                let start = leaving[stretch.lowerBound] ?? clock.now()
                let riding = stretch.allSatisfy({ plan.legs[$0] != nil })
                    ? arriving[stretch.upperBound].map { $0.timeIntervalSince(start) } : nil
                queries += 1
                let walk = LegQuery(from: plan.nodes[stretch.lowerBound].place, to: plan.nodes[stretch.upperBound].place,
                                    mode: .walk, timing: .departAt(start), pace: plan.pace, access: plan.access)
                let walking = try await leg(for: walk).map(\.expectedTravelTime).successValue
                let choice = Self.walkOrRide(walking: walking, riding: riding, inherited: .transit)
                if choice.mode == .walk {
                    nodes.append(plan.nodes[stretch.upperBound])
                    modes.append(.walk)
                    legs.append(nil)  // asked again by the recompute, which then asks the rides after it again
                    origins.append(nil)
                    walked.append((modes.count - 1, choice.reason))
                    continue
                }
            }
            nodes += plan.nodes[(stretch.lowerBound + 1)...stretch.upperBound]
            modes += plan.modes[stretch]
            legs += plan.legs[stretch]
            origins += stretch.map { Optional($0) }
        }
        try Task.checkCancellation()
        guard !walked.isEmpty else {
            return LegComputation(plan: plan, failures: computed.failures, queryCount: computed.queryCount + queries)
        }
        var result = plan
        result.replaceStructure(nodes: nodes, modes: modes, legs: legs, origins: origins)
        for hop in walked { result.setModeNote(hop.reason, ofSegment: hop.segment) }
        var again = try await computeLegsReporting(result, currentLocation: currentLocation)
        again.queryCount += computed.queryCount + queries
        // The rides after a walked stretch may leave at other times now: they are judged again
        // (a walked stretch is never ridden again, so this ends within the stretch count).
        return try await walkingHopsNoSlower(in: again, currentLocation: currentLocation)
    }

    /// The note of a ride the user chose for segment `index` (`plan mode … transit`): their choice
    /// stays, and when walking it is no slower than the ride door to door the segment says so
    /// ("walking (6 min) is no slower than transit (9 min)"); otherwise it says nothing. One
    /// walk query, only for a computed ride the engine marked `walkingIsNoSlower`.
    /// - throws: only `CancellationError`.
    func notingWalkingNoSlower(ofSegment index: Int, in plan: RoutePlan) async throws -> RoutePlan {
        var noted = plan
        guard plan.modes.indices.contains(index), plan.modes[index] == .transit else { return plan }
        noted.setModeNote(nil, ofSegment: index)
        guard let ride = plan.legs[index], ride.walkingIsNoSlower else { return noted }
        let start = plan.readyToLeave(now: clock.now())[index] ?? ride.departure ?? clock.now()
        let riding = ride.arrival.map { $0.timeIntervalSince(start) } ?? ride.expectedTravelTime
        let walk = LegQuery(from: plan.nodes[index].place, to: plan.nodes[index + 1].place, mode: .walk,
                            timing: .departAt(start), pace: plan.pace, access: plan.access)
        if let walking = try await leg(for: walk).map(\.expectedTravelTime).successValue, walking <= riding {
            noted.setModeNote(Self.walkingIsNoSlower(walking: walking, riding: riding), ofSegment: index)
        }
        return noted
    }
}

extension RoutePlan {
    /// When the traveller can leave each node, waiting for no ride: the origin at the plan's
    /// earliest departure (its "depart at", or now; after its stay), not when its first ride
    /// leaves as `departureTimes` has it (the wait for that ride is part of the ride door to
    /// door); every other node as `departureTimes`. An arrive-by plan's origin as `departureTimes`.
    func readyToLeave(now: Date) -> [Date?] {
        var times = departureTimes(startingAt: now)
        if let start = earliestDeparture(now: now) { times[0] = nodes[0].leaving(arrivedAt: start) }
        return times
    }
}

extension Result {
    /// The value of a success; nil for a failure (its error is not needed).
    var successValue: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
