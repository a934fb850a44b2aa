extension Params {
    public struct PlanPin: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.pin")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var segment: Int
        /// The departure to look for and pin on that segment (with `line`: from when to look;
        /// default the segment's current time). Required without `line`.
        public var time: String?
        /// Pin the first departure of this line (a transit segment).
        public var line: String?
        public init(id: Int64, segment: Int, time: String?, line: String? = nil, expectedGeneration: Int64? = nil) {
            self.id = id
            self.segment = segment
            self.time = time
            self.line = line
            self.expectedGeneration = expectedGeneration
        }
    }
}
