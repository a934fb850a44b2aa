import Foundation
import Planner

/// A plan as saved: its store id, the user's title and the exact `RoutePlan`.
public struct StoredPlan: Sendable, Hashable, Identifiable {
    public typealias ID = Int64

    public let id: ID
    public var title: String
    public var plan: RoutePlan
    public var createdAt: Date
    public var updatedAt: Date
    /// Grows with every change of the plan (the daemon's `generation`): 1 when created, 0 for a
    /// plan stored before generations were (schema 15).
    public var generation: Int64

    public init(id: ID, title: String, plan: RoutePlan, createdAt: Date, updatedAt: Date, generation: Int64) {
        self.id = id
        self.title = title
        self.plan = plan
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.generation = generation
    }
}

/// One line of the plan list: enough to choose a plan without loading it.
public struct PlanSummary: Sendable, Hashable, Identifiable {
    public let id: StoredPlan.ID
    public var title: String
    /// The origin's and destination's place names.
    public var fromName: String
    public var toName: String
    public var updatedAt: Date
    /// Door-to-door seconds (`RoutePlan.totalTravelTime`); nil while a leg is missing.
    public var totalTravelTime: TimeInterval?
    /// The time the plan departs at or arrives by; nil for a plan that leaves now.
    public var travelAt: Date?
    /// The origin's position, which tells the region (and so the zone of `travelAt`'s day).
    public var origin: Coordinate?
    /// The first node's time as `plan show` shows it (`startsAt(of:)`); nil when the plan has none
    /// of its own (a leave-now plan with no dated leg starts now) or was stored before it was kept.
    public var startsAt: Date?

    public init(id: StoredPlan.ID, title: String, fromName: String, toName: String, updatedAt: Date,
                totalTravelTime: TimeInterval?, travelAt: Date? = nil, origin: Coordinate? = nil, startsAt: Date? = nil) {
        self.id = id
        self.title = title
        self.fromName = fromName
        self.toName = toName
        self.updatedAt = updatedAt
        self.totalTravelTime = totalTravelTime
        self.travelAt = travelAt
        self.origin = origin
        self.startsAt = startsAt
    }

    /// The total a summary shows for `plan`: `RoutePlan.totalTravelTime`, the one definition
    /// (door to door, `nil` while a leg is missing).
    public static func totalTravelTime(of plan: RoutePlan) -> TimeInterval? {
        plan.totalTravelTime
    }

    /// When a summary says `plan` starts: its first node's time in `RoutePlan.schedule()`, the
    /// time `totalTravelTime` counts from, so that the list shows the total as `plan show` does
    /// (the difference of the two shown times); nil without one.
    public static func startsAt(of plan: RoutePlan) -> Date? {
        plan.schedule().first ?? nil
    }
}
