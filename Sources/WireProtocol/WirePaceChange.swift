/// `plan.pace`'s value: a pace, or `next` (cycles normal → fast → slow).
public enum WirePaceChange: String, WireWord {
    case slow, normal, fast, next

    /// The pace it sets; nil for `next`, whose pace depends on the plan.
    public var pace: WirePace? { WirePace(rawValue: rawValue) }
}
