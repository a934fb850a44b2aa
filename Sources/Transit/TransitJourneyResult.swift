import Foundation
import Planner

/// A walk inside a transit journey: to the first stop, between rides, or to the destination.
public struct TransitWalk: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable { case access, transfer, egress }
    public var kind: Kind
    public var fromName: String
    public var from: Coordinate
    public var toName: String
    public var to: Coordinate
    /// When the walk starts and how long it takes at the user's pace (a change at one stop
    /// has zero metres and the stop's minimum change time).
    public var start: Date
    public var seconds: Double
    public var metres: Double

    public init(kind: Kind, fromName: String, from: Coordinate, toName: String, to: Coordinate,
                start: Date, seconds: Double, metres: Double) {
        self.kind = kind
        self.fromName = fromName
        self.from = from
        self.toName = toName
        self.to = to
        self.start = start
        self.seconds = seconds
        self.metres = metres
    }
}

extension TransitWalk {
    /// The planner's form of this walk, carried on the `RouteLeg`.
    public var step: TransitWalkStep {
        let stepKind: TransitWalkStep.Kind = switch kind {
        case .access: .access
        case .transfer: .transfer
        case .egress: .egress
        }
        return TransitWalkStep(kind: stepKind, fromName: fromName, from: from, toName: toName, to: to,
                               start: start, duration: seconds, distance: metres)
    }
}

/// One journey: the leg the routing port returns plus the walks between its rides.
public struct TransitJourney: Hashable, Sendable {
    public var leg: RouteLeg
    /// Access walk, one walk per transfer, egress walk, in order.
    public var walks: [TransitWalk]

    public init(leg: RouteLeg, walks: [TransitWalk]) {
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
