/// What `BackgroundRefresher` needs of a plan's refresh: the plans of a region, and one refresh
/// (`PlanRefreshJob`; a test stands in for it to drive the queue's outcomes).
protocol PlanRefreshing: Sendable {
    /// The stored plans with an end in `region`, oldest first.
    func plans(inRegion region: String) async throws -> [Int64]
    /// Refreshes one plan (`live`: for live data) and says how it went.
    func run(planID id: Int64, live: Bool) async throws -> PlanRefreshJob.Outcome
}

extension PlanRefreshJob: PlanRefreshing {}
