extension Params {
    /// `plan.pace`: a pace, or `next` (cycles normal → fast → slow).
    public struct PlanPace: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.pace")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var pace: WirePaceChange
        public init(id: Int64, pace: WirePaceChange, expectedGeneration: Int64? = nil) {
            self.id = id
            self.pace = pace
            self.expectedGeneration = expectedGeneration
        }
    }
}
