extension Params {
    public struct PlanRefine: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.refine")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var depth: Int?
        public init(id: Int64, depth: Int? = nil, expectedGeneration: Int64? = nil) {
            self.id = id
            self.depth = depth
            self.expectedGeneration = expectedGeneration
        }
    }
}
