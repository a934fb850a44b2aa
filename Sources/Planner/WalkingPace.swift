/// The user's walking pace. No engine takes a speed, so walk durations are scaled.
public enum WalkingPace: String, Sendable, Codable, CaseIterable {
    case slow, normal, fast

    /// Multiplier applied to a normal-pace walking duration.
    public var durationMultiplier: Double {
        switch self {
        case .slow: 1.25
        case .normal: 1.0
        case .fast: 0.8
        }
    }

    /// Cycling order: normal → fast → slow → normal.
    public var next: WalkingPace {
        switch self {
        case .normal: .fast
        case .fast: .slow
        case .slow: .normal
        }
    }
}
