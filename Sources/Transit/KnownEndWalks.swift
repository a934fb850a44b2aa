import Foundation

/// Walks between a query's ends and some stops whose seconds are known better than the
/// router's estimate (the daemon times them on the streets): the search uses these instead of
/// `WalkingTimeEstimator`'s guess for those stops. Keyed by stop ID (`TransitStop.id`);
/// seconds at the query's pace.
public struct KnownEndWalks: Hashable, Sendable {
    /// From the origin to a stop.
    public var access: [String: Int]
    /// From a stop to the destination.
    public var egress: [String: Int]
    /// The estimate of every other stop's walk is stretched by this (≥ 1): a caller that found
    /// the estimates short again and again asks once more with the unknown walks made longer.
    public var estimateStretch: Double

    public init(access: [String: Int] = [:], egress: [String: Int] = [:], estimateStretch: Double = 1) {
        self.access = access
        self.egress = egress
        self.estimateStretch = max(1, estimateStretch)
    }
}
