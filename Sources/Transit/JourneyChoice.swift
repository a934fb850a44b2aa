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

    /// The last second of the minute `seconds` is shown in (times are shown to the minute, as
    /// their minute: docs/planner.md). Arrivals up to it are the same arrival as one at `seconds`.
    static func endOfShownMinute(_ seconds: Int) -> Int {
        seconds - ((seconds % 60) + 60) % 60 + 59
    }

    /// The journey a traveller takes among `journeys` arriving in the shown minute of `arrival`
    /// or before (the dominance rule: arrivals in the same shown minute are the same arrival):
    /// of those no other dominates (`JourneyDominance`), the one leaving latest, then with fewer
    /// transfers, then arriving in the earliest shown minute, then less walking, then arriving
    /// earliest, then the first given (so asking earlier never arrives later for the same
    /// departure and rides: the earliest arrival from the time asked). A journey with
    /// more rides leaving less than a minute later is dominated, so a change buys more than a
    /// minute. Depart-at's answer, `arrival` the earliest arrival (`earliestArrival`), and
    /// arrive-by's, `arrival` the earliest from its latest departure on. `nil` for none.
    ///
    /// ```swift
    /// // Bus 9 leaving 08:00 after 663 m of walking arrives 08:23:16; bus 7 leaving 08:04 with
    /// // less walking arrives 08:23:31: both read 08:23, so bus 7 is taken.
    /// JourneyChoice.taken(among: [bus9, bus7], arrivingInTheMinuteOf: bus9.arrival)  // bus7
    /// ```
    static func taken(among journeys: [Raptor.Journey], arrivingInTheMinuteOf arrival: Int) -> Raptor.Journey? {
        let arriving = journeys.filter { $0.arrival <= endOfShownMinute(arrival) }
        let criteria = arriving.map(JourneyDominance.Criteria.init)
        return arriving.indices.filter { k in
            !criteria.contains { JourneyDominance.dominates($0, criteria[k]) }
        }.min { a, b in
            let (x, y) = (arriving[a], arriving[b])
            return (-x.departure, x.rides.count, endOfShownMinute(x.arrival), walkingSeconds(x), x.arrival, a)
                < (-y.departure, y.rides.count, endOfShownMinute(y.arrival), walkingSeconds(y), y.arrival, b)
        }.map { arriving[$0] }
    }

    /// The seconds a journey walks: to the first stop, between rides and from the last stop.
    static func walkingSeconds(_ journey: Raptor.Journey) -> Int {
        journey.access.seconds + journey.egress.seconds + journey.transfers.reduce(0) { $0 + $1.seconds }
    }
}
