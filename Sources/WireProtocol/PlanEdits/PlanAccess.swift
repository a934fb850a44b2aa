extension Params {
    /// `plan.access`: the plan's step-free setting; walk and transit legs are recomputed.
    public struct PlanAccess: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.access")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var access: AccessLevel
        public init(id: Int64, access: AccessLevel, expectedGeneration: Int64? = nil) {
            self.id = id
            self.access = access
            self.expectedGeneration = expectedGeneration
        }
    }
}
