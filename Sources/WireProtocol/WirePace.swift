/// The walking pace a trip is planned at (`compare`, `plan.new`). The daemon maps it to the
/// planner's `WalkingPace`.
public enum WirePace: String, WireWord {
    case slow, normal, fast
}
