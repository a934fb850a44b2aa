import Planner

/// One answer from the place index.
public struct PlaceSearchResult: Hashable, Sendable, Codable {
    public var name: String
    public var coordinate: Coordinate
    public var kind: PlaceSearchKind
    /// The OSM tag that made it a place ("highway=residential", "amenity=cafe"); nil for stops.
    public var category: String?
    /// The feed's stop id, for stops.
    public var stopID: String?
    /// For stops: the transit modes serving it ("bus", "tram", "rail"), sorted.
    public var transitModes: [String]
    /// Metres from the search's `near` point, or from the nearby-stops centre; nil without one.
    public var distance: Double?

    public init(name: String, coordinate: Coordinate, kind: PlaceSearchKind, category: String? = nil,
                stopID: String? = nil, transitModes: [String] = [], distance: Double? = nil) {
        self.name = name
        self.coordinate = coordinate
        self.kind = kind
        self.category = category
        self.stopID = stopID
        self.transitModes = transitModes
        self.distance = distance
    }

    /// The planner's view of the result.
    public var place: Place {
        let placeKind: PlaceKind = switch kind {
        case .street: .street
        case .poi: .poi
        case .stop: .transitStop
        }
        return Place(name: name, coordinate: coordinate, kind: placeKind)
    }
}
