import Foundation

/// Which journey of RAPTOR's Pareto set (one per number of rides, each faster than those with
/// fewer rides) a person would take. An extra transfer must pay for itself: each transfer costs
/// `transferPenalty` seconds, so depart-at picks the least arrival + penalty × transfers and
/// arrive-by the greatest departure − penalty × transfers; ties go to fewer transfers.
///
/// ```swift
/// let choice = JourneyChoice(transferPenalty: 180)
/// // 08:30 direct beats 08:28 with a change: 08:30 < 08:28 + 3 min.
/// choice.best(among: journeys, departAt: true)
/// ```
///
/// Rides no faster than walking the same hop are removed before (see
/// `TransitRouter.hasRideNoFasterThanWalking`). The brute-force property test applies both
/// rules in its oracle (the short-ride rule over every journey tied with a Pareto member).
struct JourneyChoice: Hashable, Sendable {
    /// Seconds one more transfer must save.
    var transferPenalty: Int

    /// The chosen journey; `nil` for an empty set.
    func best(among journeys: [Raptor.Journey], departAt: Bool) -> Raptor.Journey? {
        journeys.min { a, b in
            let (ca, cb) = (cost(a, departAt: departAt), cost(b, departAt: departAt))
            return ca != cb ? ca < cb : a.rides.count < b.rides.count
        }
    }

    /// Lower is better: the arrival (depart-at) or minus the departure (arrive-by), plus the
    /// penalty per transfer.
    func cost(_ journey: Raptor.Journey, departAt: Bool) -> Int {
        cost(departure: journey.departure, arrival: journey.arrival, rides: journey.rides.count, departAt: departAt)
    }

    func cost(departure: Int, arrival: Int, rides: Int, departAt: Bool) -> Int {
        (departAt ? arrival : -departure) + transferPenalty * max(0, rides - 1)
    }

    /// Among journeys arriving no later than one chosen, the one a person takes: the latest
    /// departure, then the fewest rides, then the least walking (`leavesLater`).
    static func latestDeparture(among journeys: [Raptor.Journey]) -> Raptor.Journey? {
        journeys.reduce(nil as Raptor.Journey?) { best, j in best.map { leavesLater(j, than: $0) ? j : $0 } ?? j }
    }

    /// Whether `a` is better than `b` by the dominance rule's order for journeys arriving alike:
    /// it leaves later, or as late with fewer rides, or with as many and less walking.
    static func leavesLater(_ a: Raptor.Journey, than b: Raptor.Journey) -> Bool {
        (a.departure, -a.rides.count, -walkingSeconds(a)) > (b.departure, -b.rides.count, -walkingSeconds(b))
    }

    /// The seconds a journey walks: to the first stop, between rides and from the last stop.
    static func walkingSeconds(_ journey: Raptor.Journey) -> Int {
        journey.access.seconds + journey.egress.seconds + journey.transfers.reduce(0) { $0 + $1.seconds }
    }
}
