import Foundation

/// The planner's thresholds. Defaults are the values DESIGN.md specifies; the candidate counts
/// bound the number of routing queries (see docs/planner.md, "Query budget").
public struct PlannerConfiguration: Hashable, Sendable {
    // MARK: Builder
    /// How far from an end the builder looks for its nearest stop.
    public var accessStopRadius: Double = 1_000
    /// How many nearby stops the builder asks for (it picks one).
    public var accessStopLookupLimit: Int = 8
    /// At or beyond this straight-line length a train station is preferred over a nearer bus stop.
    public var longDistanceMetres: Double = 10_000
    /// An end this close to its nearest stop is that stop: nothing is inserted.
    public var endIsStopMetres: Double = 25
    /// How far from the traveller's place a ride may board or alight: the transit engine's
    /// access radius (the daemon passes `TransitRouter.defaultAccessRadius`). Another stop of a
    /// ride's trip beyond it is never walked to, as a search from the door never sees it.
    public var rideReachRadius: Double = 800

    // MARK: Compare
    /// Beyond this straight-line distance between the ends, `compare` answers the mode with
    /// `RoutingError.tooFar` instead of asking its engine: nobody walks 176 km between two
    /// cities, and asking Routino for it on a country's graph takes seconds. Modes not listed
    /// are always asked. The daemon reads them from `compare_walk_limit_km` / `compare_bike_limit_km`.
    public var comparedDistanceLimits: [TravelMode: Double] = [.walk: 30_000, .bike: 100_000]

    // MARK: Refinement
    /// A walk leg longer than this is worth trying to replace with transit.
    public var longWalkThreshold: TimeInterval = 15 * 60
    /// Walk → transit → walk is inserted only if at least this much faster than the walk.
    public var walkSplitMinimumGain: TimeInterval = 3 * 60
    /// Stops this close to a leg's own ends do not split it and are never candidates.
    public var candidateExclusionRadius: Double = 150
    /// Search radius for stops near a long walk's ends.
    public var walkSplitStopRadius: Double = 800
    /// Stops tried near each end of a long walk (so at most this² transit queries).
    public var walkSplitCandidatesPerEnd: Int = 2
    /// A transit leg longer than this is worth trying to split.
    public var transitSplitThreshold: TimeInterval = 10 * 60
    /// Search radius for stops near the midpoint of a transit leg.
    public var transitSplitStopRadius: Double = 1_500
    /// Midpoint stops tried per transit leg.
    public var transitSplitCandidates: Int = 3
    /// Segments probed per refinement level (walk and transit together).
    public var maxSegmentsProbedPerLevel: Int = 3

    // MARK: Pinned departures
    public var pinTolerance = DurationTolerance()
    /// Each retry of a pinned departure shifts the query this much later…
    public var pinShift: TimeInterval = 10 * 60
    /// …at most this many times.
    public var pinShiftAttempts: Int = 4
    /// Differences up to this are not worth a pending update.
    public var pendingUpdateThreshold: TimeInterval = 1
    /// Alternatives searched for a departure of one line (`Planner.pinning(_:segment:line:at:)`).
    public var lineSearchWidth: Int = 12
    /// How long before the minute a line pin names its rides are asked for when none of that line
    /// leaves then from the shown ride's stop: the walk to the line's own stop may be longer.
    public var lineStopWalkAllowance: TimeInterval = 30 * 60

    public init() {}

    /// Most routing queries (leg + stop lookups) one refinement level can make.
    public var maxQueriesPerRefinementLevel: Int {
        let c = walkSplitCandidatesPerEnd
        let walkProbe = 1 + 2 + 2 * c + c * c  // the whole-walk transit query, then the nearest stops
        let transitProbe = 1 + 2 * transitSplitCandidates
        return maxSegmentsProbedPerLevel * max(walkProbe, transitProbe)
    }

    /// Most queries re-finding one pinned departure: the plain query plus the shifts.
    public var maxQueriesPerPinnedLeg: Int { 1 + pinShiftAttempts }
}
