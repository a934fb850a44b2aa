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

    public init(id: ID, title: String, plan: RoutePlan, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.title = title
        self.plan = plan
        self.createdAt = createdAt
        self.updatedAt = updatedAt
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
    /// Door-to-door seconds when every segment has a leg: last arrival − first departure when
    /// all legs carry times, otherwise the sum of the legs' travel times. Nil otherwise.
    public var totalTravelTime: TimeInterval?

    public init(id: StoredPlan.ID, title: String, fromName: String, toName: String, updatedAt: Date,
                totalTravelTime: TimeInterval?) {
        self.id = id
        self.title = title
        self.fromName = fromName
        self.toName = toName
        self.updatedAt = updatedAt
        self.totalTravelTime = totalTravelTime
    }

    /// The total a summary shows for `plan` (see `totalTravelTime`).
    public static func totalTravelTime(of plan: RoutePlan) -> TimeInterval? {
        let legs = plan.legs.compactMap { $0 }
        guard legs.count == plan.legs.count, !legs.isEmpty else { return nil }
        if let start = legs.first?.departure, let end = legs.last?.arrival,
           legs.allSatisfy({ $0.departure != nil && $0.arrival != nil }) {
            return end.timeIntervalSince(start)
        }
        return legs.reduce(0) { $0 + $1.expectedTravelTime }
    }
}
