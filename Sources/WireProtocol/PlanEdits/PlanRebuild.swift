extension Params {
    /// `plan.rebuild`: the plan built again from its two ends with a preset.
    public struct PlanRebuild: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.rebuild")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var preset: WirePreset
        public init(id: Int64, preset: WirePreset, expectedGeneration: Int64? = nil) {
            self.id = id
            self.preset = preset
            self.expectedGeneration = expectedGeneration
        }
    }
}
