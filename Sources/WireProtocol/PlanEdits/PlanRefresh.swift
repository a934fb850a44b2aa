extension Params {
    /// `plan.refresh`: every leg asked again with the current routing data.
    public struct PlanRefresh: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.refresh")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public init(id: Int64, expectedGeneration: Int64? = nil) {
            self.id = id
            self.expectedGeneration = expectedGeneration
        }
    }
}
