import Foundation

/// Walks between a query's ends and some stops whose seconds are known better than the
/// router's estimate (the daemon times them on the streets): the search uses these for those
/// stops. Keyed by stop ID (`TransitStop.id`); seconds at the query's pace.
public struct KnownEndWalks: Hashable, Sendable {
    /// From the origin to a stop.
    public var access: [String: Int]
    /// From a stop to the destination.
    public var egress: [String: Int]
    /// The walk to or from every other stop priced as the straight line at this speed (at a
    /// normal pace) instead of `WalkingTimeEstimator`'s guess: the street speed makes it a lower
    /// bound, so an answer whose walks are all known is the best one. Nil: the estimator.
    public var unknownMetresPerSecond: Double?

    public init(access: [String: Int] = [:], egress: [String: Int] = [:], unknownMetresPerSecond: Double? = nil) {
        self.access = access
        self.egress = egress
        self.unknownMetresPerSecond = unknownMetresPerSecond.map { max(0.1, $0) }
    }
}
