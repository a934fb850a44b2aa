/// How one segment of a plan is travelled.
public enum TravelMode: String, Sendable, Codable, CaseIterable {
    case walk, transit, car, bike
}
