/// What every unlocked segment of a plan becomes (`plan.preset`, `plan.rebuild`): one mode, or
/// `fastest` (walk, transit and car variants measured, the quickest complete one kept). The
/// daemon maps it to the planner's `PlanPreset`.
public enum WirePreset: String, WireWord {
    case walk, transit, car, bike, fastest
}
