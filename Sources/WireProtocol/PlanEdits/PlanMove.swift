extension Params {
    public struct PlanMove: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.move")
        public var id: Int64
        public var node: Int
        public var place: String
        public var region: String?
        public var near: String?
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public init(id: Int64, node: Int, place: String, region: String? = nil, near: String? = nil,
                    expectedGeneration: Int64? = nil) {
            self.expectedGeneration = expectedGeneration
            self.id = id
            self.node = node
            self.place = place
            self.region = region
            self.near = near
        }
    }
}
