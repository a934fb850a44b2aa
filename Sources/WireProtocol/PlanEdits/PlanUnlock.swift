extension Params {
    /// `plan.unlock`: the mode lock (and the pin) of `segment` removed.
    public struct PlanUnlock: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.unlock")
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
