import Foundation

/// How close a recomputed leg's duration must be to the pinned one to count as "the same
/// departure": |actual − expected| ≤ max(expected × relative, absolute).
/// With the defaults a 22-minute leg allows 132 s and a 10-minute leg 120 s.
public struct DurationTolerance: Hashable, Sendable, Codable {
    public var relative: Double
    public var absolute: TimeInterval

    public init(relative: Double = 0.10, absolute: TimeInterval = 120) {
        self.relative = relative
        self.absolute = absolute
    }

    public func matches(expected: TimeInterval, actual: TimeInterval) -> Bool {
        abs(actual - expected) <= max(expected * relative, absolute)
    }
}
