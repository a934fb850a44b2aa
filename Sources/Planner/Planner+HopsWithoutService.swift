import Foundation

/// A day plan by transit walks a hop no line serves instead of failing (`buildPlanReporting`,
/// "walked: no transit route found (walking takes 1 h 29 min)"). After an edit the same holds
/// (issue 39 F13): `plan time` moving a day to an hour without service left its rides as
/// "no leg" where `plan new` at that hour walks them.
extension Planner {
    /// `computed` with each stretch between two of the user's nodes that the planner rides (a
    /// transit segment in it, nothing of the user's: no lock, no pin) and whose ride found none
    /// (`no_route`, `outside_service_period`) walked from end to end, saying why, then computed
    /// again. A stay at a stop in a stretch is the user's and stays: the stretch from that stop
    /// on is judged as a stretch of its own (issue 39 F13: the ride after `plan stay ID N
    /// --until 11:40` at an inferred stop found none and kept no leg at all, neither ride nor
    /// walk). A day only (three or more of the user's places), as at
    /// creation: a plan of two places by transit keeps the ride the user asked for. The stretch
    /// the plan reaches first is walked first (last first in an arrive-by plan): the stretches
    /// beyond it were asked at a time carried over the gap. One walk query a walked stretch.
    /// - throws: only `CancellationError`.
    public func walkingDayHopsWithoutService(in computed: LegComputation, currentLocation: Coordinate? = nil) async throws
        -> LegComputation {
        var current = computed
        var refused: Set<Int> = []  // stretches (by their first segment) with no walk either
        for _ in 0..<computed.plan.segmentCount {
            let plan = current.plan
            let stretches = plan.stretches()
            guard stretches.count >= 2 else { return current }
            let failed = Set(current.failures.filter { Self.meansNothingToCatch($0.error) }.map(\.segment))
            let candidates = plan.stretchesSplitAtStays().filter { stretch in
                !refused.contains(stretch.lowerBound) && !plan.holdsDecision(stretch)
                    && stretch.contains { plan.modes[$0] == .transit && plan.legs[$0] == nil && failed.contains($0) }
            }
            let backward: Bool = if case .arriveBy = plan.timePreference { true } else { false }
            guard let stretch = backward ? candidates.last : candidates.first else { return current }
            let start = plan.readyToLeave(now: clock.now())[stretch.lowerBound] ?? plan.earliestDeparture(now: clock.now()) ?? clock.now()
            let query = LegQuery(from: plan.nodes[stretch.lowerBound].place, to: plan.nodes[stretch.upperBound].place,
                                 mode: .walk, timing: .departAt(start), pace: plan.pace, access: plan.access)
            current.queryCount += 1
            guard let walking = try await leg(for: query).map(\.expectedTravelTime).successValue else {
                refused.insert(stretch.lowerBound)
                continue
            }
            var walked = plan
            let first = stretch.lowerBound
            walked.replaceStructure(nodes: Array(plan.nodes[...first]) + plan.nodes[stretch.upperBound...],
                                    modes: Array(plan.modes[..<first]) + [.walk] + plan.modes[stretch.upperBound...],
                                    legs: Array(plan.legs[..<first]) + [nil] + plan.legs[stretch.upperBound...],
                                    origins: RoutePlan.origins(count: plan.segmentCount, replacing: stretch, with: 1))
            // The transit answer says when service ended and resumes ("the last ride is tram 3 at 11:34 from Keskustori B, the
            // next is …"): the traveller sees why, not only that none was found.
            let why = Self.noRideWords(current.failures, in: stretch)
            walked.setModeNote(Self.noting(Self.walkOrRide(walking: walking, riding: nil, inherited: .walk, leaving: start).reason, why: why),
                               ofSegment: first)
            // The rides after it (before it, timed back) are asked again by the recompute: a leg
            // before them in the run was asked ("Kept legs are re-checked").
            refused = []
            let queries = current.queryCount
            current = try await computeLegsReporting(walked, currentLocation: currentLocation)
            current.queryCount += queries
        }
        return current
    }
}

extension RoutePlan {
    /// `stretches()`, each cut at the nodes inside it with a stay: the way from a stop the
    /// traveller stays at to the next of the user's nodes goes on from there, after the stay.
    func stretchesSplitAtStays() -> [Range<Int>] {
        stretches().flatMap { stretch -> [Range<Int>] in
            let cuts = [stretch.lowerBound] + stretch.dropFirst().filter { nodes[$0].stay != nil } + [stretch.upperBound]
            return zip(cuts, cuts.dropFirst()).map { $0..<$1 }
        }
    }
}
