extension Params {
    /// `plan.dismiss`: the pending update of `segment` dismissed (the user's choice kept).
    public struct PlanDismiss: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.dismiss")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var segment: Int
        public init(id: Int64, segment: Int, expectedGeneration: Int64? = nil) {
            self.id = id
            self.segment = segment
            self.expectedGeneration = expectedGeneration
        }
    }
}
