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

    public init(arrivingBy: Bool, time: Date) {
        self.arrivingBy = arrivingBy
        self.time = time
    }
}
