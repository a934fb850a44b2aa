import Planner

/// A transit stop to add to a region's place index (the transit importer provides these).
public struct IndexedStop: Hashable, Sendable, Codable {
    /// The feed's stop id; adding a stop with an id already indexed for its feed replaces it.
    public var id: String
    /// Which of the region's feeds it comes from (1 for the first): two feeds may share an id.
    public var feed: Int
    public var name: String
    public var coordinate: Coordinate
    /// Modes serving the stop: "bus", "tram", "rail", …
    public var modes: [String]

    public init(id: String, feed: Int = 1, name: String, coordinate: Coordinate, modes: [String]) {
        self.id = id
        self.feed = feed
        self.name = name
        self.coordinate = coordinate
        self.modes = modes
    }
}

extension IndexedStop {
    /// The stop's key in the place index (`place.stop_id`): its feed and id, "2/1234".
    var key: String { "\(feed)/\(id)" }

    /// The feed's stop id in a key (an index built before keys named the feed holds the id alone).
    static func id(fromKey key: String) -> String {
        guard let slash = key.firstIndex(of: "/"), Int(key[..<slash]) != nil else { return key }
        return String(key[key.index(after: slash)...])
    }
}
