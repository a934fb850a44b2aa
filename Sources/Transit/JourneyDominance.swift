import Foundation
import Planner

/// The dominance rule between options for one trip (docs/planner.md, "The dominance rule"):
/// an option dominates another when it leaves no earlier, arrives no later, changes no more
/// often and walks no more, and is better in one of these. A list of options never shows one
/// another dominates: nobody would take it. Times are compared to the second and also as the
/// traveller reads them, to the minute: leaving 28 s later but arriving 3 min later is no
/// option when both are shown leaving at 09:43. Leaving less than a minute later buys no
/// change and no longer walk: the same bus 9 boarded 38 s later after 2 more minutes of
/// walking is no option.
///
/// ```swift
/// // The same tram boarded at 10:48 after a 406 m walk and at 10:49 after 141 m, both at 11:11:
/// JourneyDominance.undominated([farther, nearer])  // [nearer]
/// ```
public enum JourneyDominance {
    /// What the rule compares, read from a leg; nil for a leg without times (kept as it is).
    struct Criteria: Equatable {
        var departure: Date
        var arrival: Date
        var transfers: Int
        var walkingSeconds: Double

        init(departure: Date, arrival: Date, transfers: Int, walkingSeconds: Double) {
            self.departure = departure
            self.arrival = arrival
            self.transfers = transfers
            self.walkingSeconds = walkingSeconds
        }

        /// The times as shown: the minute each falls in (docs/planner.md, shown times).
        var asShown: Criteria {
            func minute(_ date: Date) -> Date {
                Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
            }
            return Criteria(departure: minute(departure), arrival: minute(arrival), transfers: transfers,
                            walkingSeconds: walkingSeconds)
        }

        /// An engine journey's, as the leg made of it reads them.
        init(_ journey: Raptor.Journey) {
            self.init(departure: Date(timeIntervalSince1970: TimeInterval(journey.departure)),
                      arrival: Date(timeIntervalSince1970: TimeInterval(journey.arrival)),
                      transfers: max(0, journey.rides.count - 1),
                      walkingSeconds: Double(JourneyChoice.walkingSeconds(journey)))
        }

        init?(_ leg: RouteLeg) {
            guard let departure = leg.departure, let arrival = leg.arrival else { return nil }
            self.init(departure: departure, arrival: arrival, transfers: leg.transfers,
                      walkingSeconds: leg.walks.reduce(0) { $0 + $1.duration })
        }
    }

    /// Whether `a` is at least as good as `b` in every criterion and better in one, to the
    /// second or to the minute shown; or whether it changes less (or as often, walking less) and
    /// arrives in the same shown minute or before, leaving at most a minute earlier
    /// (`JourneyChoice.equalTimes`: a change or a longer walk must buy more than a minute of
    /// leaving later, whatever walking the change saves, and seconds of arrival within the
    /// minute shown buy nothing). The readings agree on the order of any two options, and the
    /// last needs fewer changes, or as many and less walking, which no option regains, so no
    /// option is dominated by one it dominates and a list always keeps one.
    static func dominates(_ a: Criteria, _ b: Criteria) -> Bool {
        dominatesExactly(a, b) || dominatesExactly(a.asShown, b.asShown) || dominatesWithinAMinute(a, b)
    }

    private static func dominatesWithinAMinute(_ a: Criteria, _ b: Criteria) -> Bool {
        a.departure >= b.departure.addingTimeInterval(-Double(JourneyChoice.equalTimes)) && a.asShown.arrival <= b.asShown.arrival
            && (a.transfers < b.transfers || a.transfers == b.transfers && a.walkingSeconds < b.walkingSeconds)
    }

    private static func dominatesExactly(_ a: Criteria, _ b: Criteria) -> Bool {
        guard a.departure >= b.departure, a.arrival <= b.arrival, a.transfers <= b.transfers,
              a.walkingSeconds <= b.walkingSeconds else { return false }
        return a != b
    }

    /// `legs` less each one another dominates, in their order. Of options equal in every
    /// criterion (two lines leaving and arriving together) all are kept: they differ in what
    /// the rule does not weigh.
    public static func undominated(_ legs: [RouteLeg]) -> [RouteLeg] {
        let criteria = legs.map(Criteria.init)
        return legs.indices.filter { k in
            guard let mine = criteria[k] else { return true }
            return !criteria.contains { $0.map { dominates($0, mine) } ?? false }
        }.map { legs[$0] }
    }
}
