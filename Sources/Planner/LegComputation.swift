/// A segment whose routing query failed; its leg stays empty and the rest of the plan goes on.
public struct SegmentFailure: Hashable, Sendable {
    public var segment: Int
    public var error: RoutingError

    public init(segment: Int, error: RoutingError) {
        self.segment = segment
        self.error = error
    }
}

/// What `Planner.computeLegsReporting` produced: the plan, and why some legs are still empty.
public struct LegComputation: Hashable, Sendable {
    public var plan: RoutePlan
    /// Failures in segment order.
    public var failures: [SegmentFailure]
    /// Routing queries made (leg queries only).
    public var queryCount: Int
    /// The segments whose time the computation may have moved: each one it asked, and each one
    /// timed from one it asked (after it going forward, before it timed back). The planner's
    /// walks among them are judged again (`Planner.judgingPlannersWalksAgain`).
    public var retimed: Set<Int>

    public init(plan: RoutePlan, failures: [SegmentFailure], queryCount: Int, retimed: Set<Int> = []) {
        self.plan = plan
        self.failures = failures
        self.queryCount = queryCount
        self.retimed = retimed
    }
}
