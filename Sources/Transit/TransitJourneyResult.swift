import Foundation
import Planner

/// One journey: the leg the routing port returns plus the walks between its rides.
public struct TransitJourney: Hashable, Sendable {
    public var leg: RouteLeg
    /// Access walk, one walk per transfer, egress walk, in order (the same as `leg.walks`).
    public var walks: [TransitWalkStep]

    public init(leg: RouteLeg, walks: [TransitWalkStep]) {
        self.leg = leg
        self.walks = walks
    }
}

/// What one transit query found.
public struct TransitJourneyResult: Hashable, Sendable {
    /// Depart-at: the earliest arrival. Arrive-by: the latest departure.
    public var best: RouteLeg
    /// The best journey with its walks.
    public var bestJourney: TransitJourney
    /// The other Pareto-optimal journeys (fewer transfers but worse time), fewest transfers first.
    public var alternatives: [RouteLeg]
    /// The same alternatives with their walks.
    public var alternativeJourneys: [TransitJourney]
    /// Walking the whole way arrives no later (depart-at) or can leave no earlier (arrive-by);
    /// the planner should then prefer the walk.
    public var walkingIsNoSlower: Bool
    /// The whole-way walk at the user's pace, when the estimator knows one.
    public var walkingSeconds: Double?
    /// Seconds spent timing access and egress walks, and in the stop-to-stop engine.
    public var accessEgressSeconds: Double
    public var engineSeconds: Double
    /// The question to ask for the next journey (depart-at: one leaving a second after the best
    /// one; arrive-by: arriving a second before it), where it is not asked from the time `best`
    /// shows: a ride asked from (to) the traveller's place beyond an inferred stop shows its
    /// times at the stop, and its time asked is moved by the known walk (`TravellerEnds`), so a
    /// journey boarding a stop nearer the place would be asked again before the first question
    /// (session 60: the next search found a bus the traveller cannot catch, which then beat the
    /// one they can). Nil: the time `best` shows.
    public var nextQuestion: LegTiming?

    public init(best: TransitJourney, alternatives: [TransitJourney], walkingIsNoSlower: Bool,
                walkingSeconds: Double?, accessEgressSeconds: Double = 0, engineSeconds: Double = 0) {
        self.best = best.leg
        self.bestJourney = best
        self.alternatives = alternatives.map(\.leg)
        self.alternativeJourneys = alternatives
        self.walkingIsNoSlower = walkingIsNoSlower
        self.walkingSeconds = walkingSeconds
        self.accessEgressSeconds = accessEgressSeconds
        self.engineSeconds = engineSeconds
    }
}
