extension Params {
    /// Exactly one of `now: true`, `at`, `arrive_by`.
    public struct PlanTime: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.time")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var now: Bool?
        public var at: String?
        public var arriveBy: String?
        public init(id: Int64, now: Bool? = nil, at: String? = nil, arriveBy: String? = nil, expectedGeneration: Int64? = nil) {
            self.id = id
            self.now = now
            self.at = at
            self.arriveBy = arriveBy
            self.expectedGeneration = expectedGeneration
        }
    }
}
