import Planner

/// A transit stop to add to a region's place index (the transit importer provides these).
public struct IndexedStop: Hashable, Sendable, Codable {
    /// The feed's stop id; adding a stop with an id already indexed replaces it.
    public var id: String
    public var name: String
    public var coordinate: Coordinate
    /// Modes serving the stop: "bus", "tram", "rail", …
    public var modes: [String]

    public init(id: String, name: String, coordinate: Coordinate, modes: [String]) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.modes = modes
    }
}
