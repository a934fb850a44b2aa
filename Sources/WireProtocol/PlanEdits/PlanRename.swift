extension Params {
    public struct PlanRename: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.rename")
        public var id: Int64
        public var title: String
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public init(id: Int64, title: String, expectedGeneration: Int64? = nil) {
            self.expectedGeneration = expectedGeneration
            self.id = id
            self.title = title
        }
    }
}
