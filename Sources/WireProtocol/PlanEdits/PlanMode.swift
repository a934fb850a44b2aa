extension Params {
    public struct PlanMode: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.mode")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var segment: Int
        public var mode: WireMode
        public init(id: Int64, segment: Int, mode: WireMode, expectedGeneration: Int64? = nil) {
            self.id = id
            self.segment = segment
            self.mode = mode
            self.expectedGeneration = expectedGeneration
        }
    }
}
