import Foundation
import Planner

/// Times a walk between two points. Transit uses it for footpaths between stops (at import)
/// and for access and egress walks (per query). The daemon plugs in the street router;
/// Transit itself knows no streets.
public protocol WalkingTimeEstimator: Sendable {
    /// Seconds to walk at `pace`, or `nil` when there is no walking way.
    func walkingSeconds(from: Coordinate, to: Coordinate, pace: WalkingPace) -> Double?
}

/// Straight-line distance stretched by a detour factor, at a normal speed of 1.33 m/s
/// (4.8 km/h), scaled by the pace. The default when no street router is wired in.
public struct StraightLineWalking: WalkingTimeEstimator {
    public var metresPerSecond: Double
    /// Streets are not straight: typical urban walks are 20–40 % longer than the crow flies.
    public var detourFactor: Double

    public init(metresPerSecond: Double = 1.33, detourFactor: Double = 1.3) {
        self.metresPerSecond = metresPerSecond
        self.detourFactor = detourFactor
    }

    public func walkingSeconds(from: Coordinate, to: Coordinate, pace: WalkingPace) -> Double? {
        guard from.isValid, to.isValid, metresPerSecond > 0 else { return nil }
        return from.distance(to: to) * detourFactor / metresPerSecond * pace.durationMultiplier
    }
}
