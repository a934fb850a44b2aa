/// What a search result is, and the filter a search may be limited to (as MapKit's result
/// types limit a search).
public enum PlaceSearchKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// A house number on a street (`addr:*` in OSM), shown as its full address.
    case address
    /// A named street, road or pedestrian way (all its OSM ways merged).
    case street
    /// A named amenity, shop, building, square or similar OSM feature.
    case poi
    /// A transit stop from the region's feed, with its modes.
    case stop

    /// The manifest's count key: "addresses", "streets", "pois", "stops".
    public var plural: String { self == .address ? "addresses" : "\(rawValue)s" }
}
