extension Params {
    /// `plan.remove`: node `node` removed (not the origin or the destination).
    public struct PlanRemove: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.remove")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var node: Int
        public init(id: Int64, node: Int, expectedGeneration: Int64? = nil) {
            self.id = id
            self.node = node
            self.expectedGeneration = expectedGeneration
        }
    }
}
