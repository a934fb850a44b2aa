/// How one segment is travelled (`plan.new`, `plan.insert`, `plan.mode`, `compare`'s `modes`,
/// history's `mode` filter). The daemon maps it to the planner's `TravelMode`.
public enum WireMode: String, WireWord {
    case walk, transit, car, bike
}
