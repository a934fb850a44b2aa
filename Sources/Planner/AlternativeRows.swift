import Foundation

/// `plan alternatives` lists no two options alike and none another beats (issue 39; trial 50:
/// a walk from Keskustori to Ratina listed "08:00 08:11 11 min walk" twice, Routino's quickest
/// route, 944 m in 679 s, beside its shortest, 930 m in 673 s). The transit engine already
/// keeps only journeys no other dominates; the street engines' two routes are judged here.
enum AlternativeRows {
    /// What an option is judged by: its times, transfers, walking, duration and distance.
    struct Measure: Equatable {
        var departure: Date
        var arrival: Date
        var transfers: Int
        var walkingSeconds: Double
        var seconds: Double
        var metres: Double

        init(_ leg: RouteLeg, start: Date) {
            departure = leg.departure ?? start
            arrival = leg.arrival ?? departure.addingTimeInterval(leg.expectedTravelTime)
            transfers = leg.transfers
            walkingSeconds = leg.walks.reduce(0) { $0 + $1.duration }
            seconds = leg.expectedTravelTime
            metres = leg.distance ?? 0
        }

        /// No worse than `other` in anything: leaves no earlier, arrives no later, with no more
        /// transfers, walking, time or distance.
        func isNoWorse(than other: Measure) -> Bool {
            departure >= other.departure && arrival <= other.arrival && transfers <= other.transfers
                && walkingSeconds <= other.walkingSeconds && seconds <= other.seconds && metres <= other.metres
        }

        /// The row `plan alternatives` prints: minutes as shown, the lines ridden.
        func row(of leg: RouteLeg) -> [String] {
            [String(ShownTime.minute(departure)), String(ShownTime.minute(arrival)), String(ShownTime.minutes(seconds)),
             String(transfers), String(ShownTime.minutes(walkingSeconds))] + leg.rides.map(\.lineName) + [leg.mode.rawValue]
        }
    }

    /// `options` without those another option beats (no worse in anything, better in one) and
    /// without one that prints the same row as one before it. Equal options on different lines
    /// are both kept (docs/planner.md, the dominance rule): their rows differ.
    static func undominated(_ options: [RouteLeg], start: Date) -> [RouteLeg] {
        let measures = options.map { Measure($0, start: start) }
        var rows = Set<[String]>()
        return options.indices.filter { index in
            let beaten = measures.indices.contains { other in
                measures[other].isNoWorse(than: measures[index]) && !measures[index].isNoWorse(than: measures[other])
            }
            return !beaten && rows.insert(measures[index].row(of: options[index])).inserted
        }.map { options[$0] }
    }
}
