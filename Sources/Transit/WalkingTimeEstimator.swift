import Foundation
import Planner

/// Times a walk between two points. Transit uses it for footpaths between stops (at import)
/// and for access and egress walks (per query). The daemon plugs in the street router for the
/// footpaths; Transit itself knows no streets.
public protocol WalkingTimeEstimator: Sendable {
    /// Seconds to walk at `pace`, or `nil` when there is no walking way (for an access or
    /// egress stop: not used; for a footpath at import: timed by `StraightLineWalking` instead).
    func walkingSeconds(from: Coordinate, to: Coordinate, pace: WalkingPace) -> Double?

    /// The same, given the great-circle metres between the points (known to the caller that
    /// found the stops around a point): an estimate from that distance need not measure again.
    func walkingSeconds(from: Coordinate, to: Coordinate, straightMetres: Double, pace: WalkingPace) -> Double?

    /// Many walks at once, answers in order (`nil`: no walking way). The import asks for every
    /// footpath in one call so an estimator backed by worker processes can answer in parallel;
    /// the default asks one pair at a time.
    /// - throws: to stop the import (cancelled, or the streets it waited for were never built);
    ///   nothing is timed as a straight line then, and no timetable is written.
    func walkingSeconds(pairs: [(from: Coordinate, to: Coordinate)], pace: WalkingPace) throws -> [Double?]

    /// True when the answers follow the street network rather than a straight line; the import
    /// report counts the footpaths timed this way (`GTFSImportReport.streetTimedFootpaths`).
    var followsStreets: Bool { get }

    /// When the answers follow streets at one speed, that speed at a normal pace (m/s): a walk's
    /// length along its way is its normal-pace seconds times this. Nil for an estimate that
    /// walks no way (a straight line stretched by a detour factor): its length is not known.
    var normalPaceMetresPerSecond: Double? { get }
}

extension WalkingTimeEstimator {
    public func walkingSeconds(pairs: [(from: Coordinate, to: Coordinate)], pace: WalkingPace) -> [Double?] {
        pairs.map { walkingSeconds(from: $0.from, to: $0.to, pace: pace) }
    }

    public func walkingSeconds(from: Coordinate, to: Coordinate, straightMetres: Double, pace: WalkingPace) -> Double? {
        walkingSeconds(from: from, to: to, pace: pace)
    }

    public var followsStreets: Bool { false }

    public var normalPaceMetresPerSecond: Double? { nil }
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
        return walkingSeconds(from: from, to: to, straightMetres: from.distance(to: to), pace: pace)
    }

    public func walkingSeconds(from: Coordinate, to: Coordinate, straightMetres: Double, pace: WalkingPace) -> Double? {
        guard from.isValid, to.isValid, metresPerSecond > 0 else { return nil }
        return straightMetres * detourFactor / metresPerSecond * pace.durationMultiplier
    }
}
