import Foundation

/// Which journey a person takes (docs/planner.md, "The dominance rule"). A change of vehicle
/// must pay for itself in arrival: each costs `transferPenalty` seconds, so of RAPTOR's Pareto
/// set (one journey per number of rides, each faster than those with fewer rides) the least
/// arrival + penalty × transfers is taken, ties going to fewer transfers (`earliestArrival`).
/// Departure is never given up for a change: the latest departure is taken, one with more
/// rides only where it leaves over a minute later (`latestDeparture`).
/// Depart-at judges the arrival first, then leaves as late as that arrival allows; arrive-by
/// leaves as late as the deadline allows, then arrives as early as that departure allows.
///
/// ```swift
/// let choice = JourneyChoice(transferPenalty: 180)
/// // 08:30 direct beats 08:28 with a change: 08:30 < 08:28 + 3 min.
/// choice.earliestArrival(among: journeys)
/// // Leaving 09:33 with a change beats leaving 09:30 direct for the same arrival.
/// JourneyChoice.latestDeparture(among: journeys)
/// ```
///
/// Rides no faster than walking the same hop are removed before (see
/// `TransitRouter.hasRideNoFasterThanWalking`). The brute-force property test applies both
/// rules in its oracle (the short-ride rule over every journey tied with a Pareto member).
struct JourneyChoice: Hashable, Sendable {
    /// Seconds one more transfer must save in arrival.
    var transferPenalty: Int

    /// Seconds within which two departures count as the same: a change of vehicle, or a longer
    /// walk, must let the traveller leave more than a minute later (the planner's stops rule alike).
    static let equalTimes = 60

    /// The question's first choice: depart-at's `earliestArrival`, arrive-by's `latestDeparture`.
    func best(among journeys: [Raptor.Journey], departAt: Bool) -> Raptor.Journey? {
        departAt ? earliestArrival(among: journeys) : Self.latestDeparture(among: journeys)
    }

    /// The least arrival plus the penalty per transfer; ties go to fewer transfers. `nil` for none.
    func earliestArrival(among journeys: [Raptor.Journey]) -> Raptor.Journey? {
        journeys.min { a, b in
            let (ca, cb) = (cost(a), cost(b))
            return ca != cb ? ca < cb : a.rides.count < b.rides.count
        }
    }

    /// The arrival plus the penalty per transfer: lower is better.
    func cost(_ journey: Raptor.Journey) -> Int {
        journey.arrival + transferPenalty * max(0, journey.rides.count - 1)
    }

    /// The latest departure, a journey with more rides taken only where it leaves over
    /// `equalTimes` later than the one taken among fewer (of one number of rides, the latest,
    /// then the least walking, then the first given). So no journey leaves over a minute later
    /// than the one taken, and a change buys more than a minute. `nil` for none.
    static func latestDeparture(among journeys: [Raptor.Journey]) -> Raptor.Journey? {
        journeys.enumerated().sorted {
            ($0.element.rides.count, -$0.element.departure, walkingSeconds($0.element), $0.offset)
                < ($1.element.rides.count, -$1.element.departure, walkingSeconds($1.element), $1.offset)
        }.map(\.element).reduce(nil as Raptor.Journey?) { taken, journey in
            guard let taken else { return journey }
            return journey.departure > taken.departure + equalTimes ? journey : taken
        }
    }

    /// The seconds a journey walks: to the first stop, between rides and from the last stop.
    static func walkingSeconds(_ journey: Raptor.Journey) -> Int {
        journey.access.seconds + journey.egress.seconds + journey.transfers.reduce(0) { $0 + $1.seconds }
    }
}
