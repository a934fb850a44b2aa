import Planner

/// What `plan new` was asked for, kept with the plan's route history entry so that
/// `history rerun` makes the same plan again: the places between the ends and the options.
public struct PlanRequest: Sendable, Hashable, Codable {
    /// The places between the ends, in order.
    public var via: [Place]
    /// What the user typed for each of `via` (nil where not known).
    public var viaTexts: [String?]
    public var preset: PlanPreset
    public var pace: WalkingPace
    /// The plan's title when it was made.
    public var title: String
    /// True when the user gave the title; a generated one is made again from the places.
    public var titleGiven: Bool
    /// Step-free travel (`.any` for an entry recorded before it was kept).
    public var access: AccessNeed

    public init(via: [Place], viaTexts: [String?], preset: PlanPreset, pace: WalkingPace, title: String, titleGiven: Bool,
                access: AccessNeed = .any) {
        self.access = access
        self.via = via
        self.viaTexts = viaTexts
        self.preset = preset
        self.pace = pace
        self.title = title
        self.titleGiven = titleGiven
    }
}
