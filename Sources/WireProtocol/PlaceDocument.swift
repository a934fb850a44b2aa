/// A place as the daemon reports it (search results, saved places, plan ends).
public struct PlaceDocument: Hashable, Sendable, Codable {
    public var name: String
    public var lat: Double
    public var lon: Double
    /// `address`, `street`, `poi`, `transit_stop`, `saved`, or null.
    public var kind: String?
    public var note: String?
    /// A saved place's fence, when `place.save` was asked for one.
    public var geofence: FenceDocument?

    public init(name: String, lat: Double, lon: Double, kind: String? = nil, note: String? = nil,
                geofence: FenceDocument? = nil) {
        self.name = name
        self.lat = lat
        self.lon = lon
        self.kind = kind
        self.note = note
        self.geofence = geofence
    }
}

/// An entry of search or route history, newest first.
public struct HistoryEntryDocument: Hashable, Sendable, Codable {
    /// The search text, or `from → to` for a route.
    public var label: String
    public var from: PlaceDocument?
    public var to: PlaceDocument?
    public var place: PlaceDocument?
    public var at: String?
    /// A route's modes (route history only).
    public var modes: [String]?

    public init(label: String, from: PlaceDocument? = nil, to: PlaceDocument? = nil,
                place: PlaceDocument? = nil, at: String? = nil, modes: [String]? = nil) {
        self.label = label
        self.modes = modes
        self.from = from
        self.to = to
        self.place = place
        self.at = at
    }
}

/// The latest location fix `@here` resolves to.
public struct LocationDocument: Hashable, Sendable, Codable {
    public var lat: Double
    public var lon: Double
    public var accuracyM: Double?
    public var at: String
    /// Where the current fix came from: `manual` (location.set) or `gpsd` (absent from older daemons).
    public var source: String?

    public init(lat: Double, lon: Double, accuracyM: Double?, at: String, source: String? = nil) {
        self.lat = lat
        self.lon = lon
        self.accuracyM = accuracyM
        self.at = at
        self.source = source
    }
}
