import Foundation

/// One column of "walk, transit, car or bike?": the built plan for one mode, or why there is none.
public struct ModeComparison: Hashable, Sendable {
    public var mode: TravelMode
    public var result: Result<RoutePlan, RoutingError>
    /// The quickest complete plan of the comparison (exactly one, unless every mode failed).
    public var isFastest: Bool

    public init(mode: TravelMode, result: Result<RoutePlan, RoutingError>, isFastest: Bool = false) {
        self.mode = mode
        self.result = result
        self.isFastest = isFastest
    }

    public var plan: RoutePlan? {
        if case .success(let plan) = result { return plan }
        return nil
    }

    public var error: RoutingError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// Door-to-door time, when the plan is complete.
    public var travelTime: TimeInterval? { plan?.totalTravelTime }
}
