import Foundation

/// An edit re-plans what it touches as a fresh plan would (issue 39 item 4). The stops and the
/// rides of a stretch were chosen for the neighbours and the time it had when they were chosen;
/// an edit that moves a neighbour or the time keeps them, and the plan is worse than a new one
/// of the same places: `plan move` to Tampereen valtatie kept Hämeenpuisto → Sorin aukio D
/// (the stop nearest the new place, which bus 13 does not pass) and arrived 07:59 where a new
/// plan arrives 07:40; `plan time --arrive-by 09:18` kept the stops asked for 09:21 and left
/// 08:33 where a new plan leaves 08:42.
extension Planner {
    /// `computed` with each stretch the computation retimed that the planner rides (a transit
    /// segment in it, only walks and rides, nothing of the user's: no lock, no pin, no stay at
    /// a stop in it; not timed back to a pin) planned again from end to end as a new plan of its
    /// two places at its time plans it, when that journey is better: asked door to door over the
    /// stretch's span (`JudgedTimes.span`: leaving when the traveller is at its start, in an
    /// arrive-by plan arriving by when they must be at its end), it arrives sooner (of equal
    /// arrivals, leaves later; timed back, leaves later, of equal departures arrives sooner).
    /// The stretch then becomes walk → ride → walk through the stops that journey uses, as a new
    /// plan builds it (`stopsOfAJourneyFromTheDoor`), computed, and it is kept only when it is
    /// better in fact (the engine times the walks at its ends its own way). One query a stretch
    /// and time it is judged from.
    /// - throws: only `CancellationError`.
    func planningTouchedStretchesAfresh(in computed: LegComputation, currentLocation: Coordinate?) async throws
        -> LegComputation {
        var current = computed
        var asked: Set<StretchJudged> = []
        let backward: Bool = if case .arriveBy = computed.plan.timePreference { true } else { false }
        for _ in 0...(2 * computed.plan.nodes.count) {
            let plan = current.plan
            let times = JudgedTimes(plan, now: clock.now())
            let stretches = plan.stretches().enumerated().filter { isPlannedAfresh($0.element, in: current) }
            var better: (ordinal: Int, stretch: Range<Int>, journey: StretchJourney, boarding: Place?, alighting: Place?)?
            for (ordinal, stretch) in backward ? stretches.reversed() : stretches {
                guard let journey = StretchJourney(stretch, in: plan, now: clock.now()) else { continue }
                let span = times.span(of: stretch, in: plan)
                let ends = StretchJudged(ends: SegmentKey(fromID: plan.nodes[stretch.lowerBound].place.id,
                                                          toID: plan.nodes[stretch.upperBound].place.id),
                                         from: backward ? span.arriving : span.leaving)
                // Timed back, only by when the traveller must be at its end (never a journey arriving later).
                guard !asked.contains(ends), !backward || span.arriving != nil else { continue }
                asked.insert(ends)
                let timing: LegTiming = if backward, let arriving = span.arriving { .arriveBy(arriving) }
                    else { .departAt(span.leaving ?? journey.departure) }
                let query = LegQuery(from: plan.nodes[stretch.lowerBound].place, to: plan.nodes[stretch.upperBound].place,
                                     mode: .transit, timing: timing, pace: plan.pace, access: plan.access)
                current.queryCount += 1
                guard let fresh = try await leg(for: query).successValue, !fresh.rides.isEmpty,
                      let departure = fresh.departure, let arrival = fresh.arrival,
                      StretchJourney(departure: departure, arrival: arrival).isBetter(than: journey, backward: backward)
                else { continue }
                let stops = self.stops(of: fresh, from: plan.nodes[stretch.lowerBound].place, to: plan.nodes[stretch.upperBound].place)
                better = (ordinal, stretch, journey, stops?.boarding, stops?.alighting)
                break
            }
            guard let better else { return current }
            try Task.checkCancellation()
            let ridden = plan.ridingFromEndToEnd(better.stretch, boarding: better.boarding, alighting: better.alighting)
            var again = try await computeLegsReporting(ridden, currentLocation: currentLocation)
            again.queryCount += current.queryCount
            // Kept only when the stretch as computed is better in fact.
            let stretchesAgain = again.plan.stretches()
            guard stretchesAgain.count == plan.stretches().count,
                  let journey = StretchJourney(stretchesAgain[better.ordinal], in: again.plan, now: clock.now()),
                  journey.isBetter(than: better.journey, backward: backward) else {
                current.queryCount = again.queryCount
                continue
            }
            // The segments the edit retimed stay due for the judgements after this one (the walk
            // rule), renumbered past the stretch, with those this computation retimed.
            let stretch = better.stretch, replaced = stretchesAgain[better.ordinal]
            again.retimed.formUnion(current.retimed.compactMap { index in
                index < stretch.lowerBound ? index : index >= stretch.upperBound ? index - stretch.count + replaced.count : nil
            })
            again.retimed.formUnion(replaced)
            current = again
        }
        return current
    }

    /// Whether `stretch` of the computed plan is one this rule plans again: retimed by the
    /// computation, walks and rides with a ride among them, nothing of the user's in it, and
    /// not timed back to a pin (its time is the pin's, which a new plan does not know).
    func isPlannedAfresh(_ stretch: Range<Int>, in computed: LegComputation) -> Bool {
        let plan = computed.plan
        return stretch.contains { computed.retimed.contains($0) } && stretch.contains { plan.modes[$0] == .transit }
            && stretch.allSatisfy { [.walk, .transit].contains(plan.modes[$0]) } && !plan.holdsDecision(stretch)
            && !stretch.dropFirst().contains { plan.nodes[$0].stay != nil }
            && !stretch.contains { if case .backwardFromPin = plan.timingSource(ofSegment: $0) { true } else { false } }
            && !stretch.contains { plan.nodes[$0].isCurrentLocation || plan.nodes[$0 + 1].isCurrentLocation }
    }
}

/// When the traveller leaves a stretch's start and gets to its end.
struct StretchJourney {
    var departure: Date
    var arrival: Date

    init(departure: Date, arrival: Date) {
        self.departure = departure
        self.arrival = arrival
    }

    /// The stretch's journey as the plan shows it: when the traveller really leaves its start
    /// (`leavingTimes`: a wait there for its ride is no journey) and gets to its end; nil when a
    /// time is unknown.
    init?(_ stretch: Range<Int>, in plan: RoutePlan, now: Date) {
        guard let departure = plan.leavingTimes(startingAt: now)[stretch.lowerBound],
              let arrival = plan.schedule(startingAt: now)[stretch.upperBound] else { return nil }
        self.init(departure: departure, arrival: arrival)
    }

    /// Seconds within which two times count as the same: walks are timed in fractions, and the
    /// engine times the walks at the ends its own way.
    static let sameTime: TimeInterval = 30

    /// Better by the dominance rule: going forward, arrives sooner, or as soon and leaves later;
    /// timed back (`backward`), leaves later, or as late and arrives sooner.
    func isBetter(than other: StretchJourney, backward: Bool) -> Bool {
        let sooner = arrival < other.arrival.addingTimeInterval(-Self.sameTime)
        let later = departure > other.departure.addingTimeInterval(Self.sameTime)
        let asSoon = arrival <= other.arrival.addingTimeInterval(Self.sameTime)
        let asLate = departure >= other.departure.addingTimeInterval(-Self.sameTime)
        return backward ? later || (asLate && sooner) : sooner || (asSoon && later)
    }
}

extension RoutePlan {
    /// The plan with `stretch` one ride from end to end, walking to `boarding` and from
    /// `alighting` as a new plan walks to the stops its journey uses (`walkingToItsStops`; the
    /// stretch's inferred stops left out, its legs to be asked), the mode note of its first ride
    /// kept on the ride.
    func ridingFromEndToEnd(_ stretch: Range<Int>, boarding: Place?, alighting: Place?) -> RoutePlan {
        let note = stretch.first { modes[$0] == .transit }.flatMap { self.note(ofSegment: $0)?.mode }
        var plan = self
        var newNodes = nodes, newModes = modes, newLegs = legs
        newNodes.removeSubrange((stretch.lowerBound + 1)..<stretch.upperBound)
        newModes.replaceSubrange(stretch, with: [.transit])
        newLegs.replaceSubrange(stretch, with: [nil])
        plan.replaceStructure(nodes: newNodes, modes: newModes, legs: newLegs,
                              origins: Self.origins(count: segmentCount, replacing: stretch, with: 1))
        let walked = plan.walkingToItsStops(ride: stretch.lowerBound, boarding: boarding, alighting: alighting)
        plan = walked.plan
        plan.placeModeNote(note, onSegment: walked.ride)
        return plan
    }
}
