import Foundation

/// Why a missed or cancelled pin has no proposal: no ride of any line can be caught from when the
/// traveller can be at the stop (the rest of that service day, as the engine searches), or, in an
/// arrive-by plan, none arrives by the time the legs after the pin need. The plan says so instead
/// of staying silent: "no later tram 3 today; the last left 23:12", "no earlier ride arrives by 08:05".
public struct NoCatchableRide: Hashable, Sendable, Codable {
    /// True: no ride arrives by `time` (arrive-by); false: none leaves at `time` or later.
    public var arrivingBy: Bool
    /// When the traveller can be at the segment's start, or when the ride must arrive by.
    public var time: Date
    /// Going forward, the segment walked from `time`, when that gets there within the plan's day
    /// (`Planner.walkingInstead`): the best the traveller can still do, and what the legs after
    /// the pin are timed from ("no later ride today; walking gets you there at 12:26", trial 50).
    /// Nil when it can't be walked that day, and in an arrive-by plan.
    public var walk: RouteLeg?

    public init(arrivingBy: Bool, time: Date, walk: RouteLeg? = nil) {
        self.arrivingBy = arrivingBy
        self.time = time
        self.walk = walk
    }
}
