/// A one-tap choice of modes for a whole plan. Presets never change a mode-locked segment.
public enum PlanPreset: String, Sendable, Codable, CaseIterable {
    case walk, transit, car
    /// Every unlocked segment by bicycle. Never chosen by `.fastest`: riding needs a bike at hand.
    case bike
    /// The quickest door to door. `Planner.applyingPreset(_:to:)` measures it by computing the
    /// walk, transit and car variants (not bike, see `.bike`); the offline `RoutePlan.applyingPreset(.fastest)` can only
    /// guess by distance (see `offlineMode(forStraightLineMetres:)`).
    case fastest

    /// The one mode this preset puts on every unlocked segment; `nil` for `.fastest`.
    public var mode: TravelMode? {
        switch self {
        case .walk: .walk
        case .transit: .transit
        case .car: .car
        case .bike: .bike
        case .fastest: nil
        }
    }

    /// The modes `.fastest` chooses between. Not the bike: riding needs a bike at hand, and a
    /// short trip would otherwise turn from a walk into a ride for everyone. `compare` still
    /// shows the bike, and marks it when it is the quickest.
    public static let fastestCandidates: [TravelMode] = [.walk, .transit, .car]

    /// Below this straight-line length walking beats parking or waiting for a vehicle.
    public static let walkingIsFastestBelowMetres: Double = 1_000

    /// The offline guess of the fastest mode for one segment: walk when short, else car.
    public static func offlineMode(forStraightLineMetres metres: Double) -> TravelMode {
        metres < walkingIsFastestBelowMetres ? .walk : .car
    }
}
