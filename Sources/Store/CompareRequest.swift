import Planner

/// What `compare` was asked with besides its ends and time, kept with the comparison's route
/// history entry so that `history rerun` asks the same again (issue 41: a step-free comparison
/// at a slow pace was rerun at a normal pace down the steps).
public struct CompareRequest: Sendable, Hashable, Codable {
    public var pace: WalkingPace
    public var access: AccessNeed
    /// The modes compared, in order.
    public var modes: [TravelMode]

    public init(pace: WalkingPace, access: AccessNeed, modes: [TravelMode]) {
        self.pace = pace
        self.access = access
        self.modes = modes
    }
}
