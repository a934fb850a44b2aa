import Foundation

/// A place in a plan, with how it got there.
public struct PlanNode: Hashable, Sendable, Codable {
    public var place: Place
    /// A stop the builder or refinement inserted, not the user.
    public var isInferred: Bool
    /// Resolves to the latest accepted location fix each time the plan is computed.
    public var isCurrentLocation: Bool
    /// Time spent here before the next leg leaves (`RoutePlan.settingStay`); it stays with the
    /// node through edits that keep the node (insert, remove elsewhere, swap, move, rebuild).
    public var stay: NodeStay?

    public init(place: Place, isInferred: Bool = false, isCurrentLocation: Bool = false, stay: NodeStay? = nil) {
        self.place = place
        self.isInferred = isInferred
        self.isCurrentLocation = isCurrentLocation
        self.stay = stay
    }

    /// The time the traveller leaves, having got here at `arrival`.
    public func leaving(arrivedAt arrival: Date) -> Date {
        stay?.leaving(arrivedAt: arrival) ?? arrival
    }

    /// The latest the traveller may get here to leave at `departure`.
    public func latestArrival(leavingAt departure: Date) -> Date {
        stay?.latestArrival(leavingAt: departure) ?? departure
    }
}
