extension Params {
    /// `plan.preset`: a preset applied to every unlocked segment.
    public struct PlanPreset: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.preset")
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public var id: Int64
        public var preset: WirePreset
        /// Also sets the plan's access (`plan.access`) before the preset is applied; nil keeps it.
        public var access: AccessLevel?
        public init(id: Int64, preset: WirePreset, expectedGeneration: Int64? = nil, access: AccessLevel? = nil) {
            self.access = access
            self.id = id
            self.preset = preset
            self.expectedGeneration = expectedGeneration
        }
    }
}
