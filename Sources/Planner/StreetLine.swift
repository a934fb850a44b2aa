/// One street of the light street layer a map picture is drawn on: a simplified OSM way and how
/// important it is. Kept in the domain so the importer that writes the layer and the renderer
/// that draws it share one type without knowing each other.
public struct StreetLine: Hashable, Sendable {
    public var streetClass: StreetClass
    public var points: [Coordinate]

    public init(streetClass: StreetClass, points: [Coordinate]) {
        self.streetClass = streetClass
        self.points = points
    }
}

/// OSM `highway=*` values grouped by how a map draws them (wider and darker first).
public enum StreetClass: UInt8, Hashable, Sendable, CaseIterable {
    case major = 0
    case secondary = 1
    case minor = 2
    case path = 3

    /// The class of a `highway` value, or nil for one that is not drawn (bus stops, proposed roads…).
    public init?(highway: String) {
        switch highway {
        case "motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link": self = .major
        case "secondary", "secondary_link", "tertiary", "tertiary_link": self = .secondary
        case "residential", "unclassified", "living_street", "service", "road", "busway": self = .minor
        case "pedestrian", "footway", "cycleway", "path", "steps", "track", "bridleway": self = .path
        default: return nil
        }
    }
}
