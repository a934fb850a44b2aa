extension Params {
    /// Exactly one of `duration_s`, `until` (a time) or `clear: true`.
    public struct PlanStay: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.stay")
        public var id: Int64
        public var node: Int
        public var durationS: Double?
        public var until: String?
        public var clear: Bool?
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public init(id: Int64, node: Int, durationS: Double? = nil, until: String? = nil, clear: Bool? = nil,
                    expectedGeneration: Int64? = nil) {
            self.expectedGeneration = expectedGeneration
            self.id = id
            self.node = node
            self.durationS = durationS
            self.until = until
            self.clear = clear
        }
    }
}
