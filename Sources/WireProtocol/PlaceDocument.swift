/// A place as the daemon reports it (search results, saved places, plan ends).
public struct PlaceDocument: Hashable, Sendable, Codable {
    public var name: String
    public var lat: Double
    public var lon: Double
    /// `address`, `street`, `poi`, `transit_stop`, `saved`, `coordinate` (typed as `lat,lon`), or null.
    @NullWhenNil public var kind: String?
    @NullWhenNil public var note: String?
    /// A saved place's fence (on or off) in `place.save` and `place.list`; null when it never had one.
    @NullWhenNil public var geofence: FenceDocument?
    /// For a place typed as text and searched (a trip's end, a place inserted, moved to or
    /// saved, a `near`): how it matched, `exact`, `prefix`, `typo`, `approximate` or
    /// `category`; left out for other places.
    public var match: String?
    /// Why the place taken is not exactly the one typed (any match but `exact`), for a person
    /// to read: "\"Pasila\" matches no name exactly; taking Basilika in tampere, a typo away".
    public var matchNote: String?

    public init(name: String, lat: Double, lon: Double, kind: String? = nil, note: String? = nil,
                geofence: FenceDocument? = nil, match: String? = nil, matchNote: String? = nil) {
        self.match = match
        self.matchNote = matchNote
        self.name = name
        self.lat = lat
        self.lon = lon
        self.kind = kind
        self.note = note
        self.geofence = geofence
    }
}

/// An entry of search or route history, newest first. Every key is present (null when the entry
/// lacks it: a search has no ends, a route no single place; entries recorded before the
/// history had IDs' details have null details).
public struct HistoryEntryDocument: Hashable, Sendable, Codable {
    /// Stable while the entry is in the list: `s<N>` for a search, `r<N>` for a route.
    public var id: String
    /// The search text, or `from → to` for a route.
    public var label: String
    /// What the user typed: a search's text, a route's two ends.
    @NullWhenNil public var text: String?
    @NullWhenNil public var fromText: String?
    @NullWhenNil public var toText: String?
    @NullWhenNil public var region: String?
    @NullWhenNil public var from: PlaceDocument?
    @NullWhenNil public var to: PlaceDocument?
    @NullWhenNil public var place: PlaceDocument?
    @NullWhenNil public var at: String?
    /// A route's modes (route history only).
    @NullWhenNil public var modes: [WireMode]?
    /// When the route was asked for (`leave_now`, `depart_at`, `arrive_by`).
    @NullWhenNil public var requestedTime: TimePreferenceDocument?
    /// Each mode compared and its door-to-door duration in whole seconds (null: no answer).
    @NullWhenNil public var answers: [HistoryAnswerDocument]?
    @NullWhenNil public var fastest: WireMode?
    /// A route that `plan.new` made: its title, options and places between the ends (null for a
    /// comparison, and for plans recorded by older daemons).
    @NullWhenNil public var plan: HistoryPlanDocument?
    /// A comparison's options as asked, which `history.rerun` asks again (null for a plan's
    /// entry, and for comparisons recorded by older daemons).
    @NullWhenNil public var compare: HistoryCompareDocument?

    public init(id: String, label: String, text: String? = nil, fromText: String? = nil, toText: String? = nil,
                region: String? = nil, from: PlaceDocument? = nil, to: PlaceDocument? = nil,
                place: PlaceDocument? = nil, at: String? = nil, modes: [WireMode]? = nil,
                requestedTime: TimePreferenceDocument? = nil, answers: [HistoryAnswerDocument]? = nil, fastest: WireMode? = nil,
                plan: HistoryPlanDocument? = nil, compare: HistoryCompareDocument? = nil) {
        self.id = id
        self.label = label
        self.text = text
        self.fromText = fromText
        self.toText = toText
        self.region = region
        self.from = from
        self.to = to
        self.place = place
        self.at = at
        self.modes = modes
        self.requestedTime = requestedTime
        self.answers = answers
        self.fastest = fastest
        self.plan = plan
        self.compare = compare
    }
}

/// One mode of a route history entry's answer.
public struct HistoryAnswerDocument: Hashable, Sendable, Codable {
    public var mode: WireMode
    @NullWhenNil public var durationS: Int?
    public init(mode: WireMode, durationS: Int?) {
        self.mode = mode
        self.durationS = durationS
    }
}

/// The latest location fix `@here` resolves to.
public struct LocationDocument: Hashable, Sendable, Codable {
    public var lat: Double
    public var lon: Double
    @NullWhenNil public var accuracyM: Double?
    public var at: String
    /// Where the current fix came from: `manual` (location.set) or `gpsd` (absent from older daemons).
    @NullWhenNil public var source: String?

    public init(lat: Double, lon: Double, accuracyM: Double?, at: String, source: String? = nil) {
        self.lat = lat
        self.lon = lon
        self.accuracyM = accuracyM
        self.at = at
        self.source = source
    }
}
