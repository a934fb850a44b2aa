import Planner

/// One answer from the place index.
public struct PlaceSearchResult: Hashable, Sendable {
    public var name: String
    public var coordinate: Coordinate
    public var kind: PlaceSearchKind
    /// The OSM tag that made it a place ("highway=residential", "amenity=cafe"); nil for stops and addresses.
    public var category: String?
    /// The feed's stop id, for stops.
    public var stopID: String?
    /// For stops: the transit modes serving it ("bus", "tram", "rail"), sorted.
    public var transitModes: [String]
    /// Metres from the search's `near` point, or from the nearby-stops centre; nil without one.
    public var distance: Double?
    /// For addresses: the full address ("Hämeenkatu 10 B, 33100 Tampere").
    public var address: String?
    /// How the name matched the text.
    public var match: PlaceMatch
    /// For fuzzy matches, lower is closer: the letters that differ first (the whole name before
    /// its start), then more letter triples shared with the text; 0 for other matches.
    public var typoRank: Int = 0
    /// Set when the answer is not exactly what was asked, saying how ("no number 11 on
    /// Hämeenkatu in the map data; the nearest is 13").
    public var approximate: String?
    /// A point of interest without a name, indexed under its category's label ("Cafe") and
    /// shown as "cafe (no name), Street 12" (`PlaceIndex.described`): it ranks after named ones.
    public var isUnnamed = false
    /// For a place found through a misspelt category word: the word it was read as ("pharmacy"
    /// for "pharmcy"), what "did you mean" offers.
    public var typoOf: String?
    /// For a fuzzy match found by leaving a word of the text out (`PlaceIndex.namesLeavingOutAWord`):
    /// that word, as typed ("Tampereen" of "Tampereen rautatieasema").
    public var leftOutWord: String?

    public init(name: String, coordinate: Coordinate, kind: PlaceSearchKind, category: String? = nil,
                stopID: String? = nil, transitModes: [String] = [], distance: Double? = nil,
                address: String? = nil, match: PlaceMatch = .exact, approximate: String? = nil) {
        self.name = name
        self.coordinate = coordinate
        self.kind = kind
        self.category = category
        self.stopID = stopID
        self.transitModes = transitModes
        self.distance = distance
        self.address = address
        self.match = match
        self.approximate = approximate
    }

    /// The planner's view of the result.
    public var place: Place {
        let placeKind: PlaceKind = switch kind {
        case .address: .address
        case .street: .street
        case .poi: .poi
        case .stop: .transitStop
        }
        return Place(name: name, coordinate: coordinate, kind: placeKind)
    }

    /// How much a place matters when matches are equally good: stations and main roads before
    /// small streets, stops before shops, shops before single addresses.
    public var importance: Int {
        switch kind {
        case .stop:
            return transitModes.contains { $0 != "bus" } ? 5 : 3
        case .poi:
            return PlaceSearchResult.stationTags.contains(category ?? "") ? 5 : 2
        case .street:
            return PlaceSearchResult.mainRoads.contains(category ?? "") ? 4 : 3
        case .address:
            return 1
        }
    }

    static let stationTags: Set<String> = ["railway=station", "railway=halt", "public_transport=station", "amenity=bus_station"]
    static let mainRoads: Set<String> = ["highway=motorway", "highway=trunk", "highway=primary", "highway=secondary",
                                         "highway=tertiary"]
}
