/// A place in a plan, with how it got there.
public struct PlanNode: Hashable, Sendable, Codable {
    public var place: Place
    /// A stop the builder or refinement inserted, not the user.
    public var isInferred: Bool
    /// Resolves to the latest accepted location fix each time the plan is computed.
    public var isCurrentLocation: Bool

    public init(place: Place, isInferred: Bool = false, isCurrentLocation: Bool = false) {
        self.place = place
        self.isInferred = isInferred
        self.isCurrentLocation = isCurrentLocation
    }
}
