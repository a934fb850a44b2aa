extension Params {
    public struct PlanInsert: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.insert")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        /// The new node goes after node `after` (1-based; 1 = after the origin).
        public var after: Int
        public var place: String
        /// The mode of the new segment; null keeps the split segment's mode.
        public var mode: WireMode?
        /// Where a text place is searched: only this region / first near this place (default near node `after`).
        public var region: String?
        public var near: String?
        public init(id: Int64, after: Int, place: String, mode: WireMode? = nil, region: String? = nil, near: String? = nil,
                    expectedGeneration: Int64? = nil) {
            self.id = id
            self.after = after
            self.place = place
            self.mode = mode
            self.region = region
            self.near = near
            self.expectedGeneration = expectedGeneration
        }
    }
}
