/// The results of methods that answer with a short confirmation or a list. Optional fields
/// that the protocol documents as `null` are marked `@NullWhenNil`: written as null, not left out.

/// `watch`'s final answer, once the watch stops.
public struct WatchEndDocument: Hashable, Sendable, Codable {
    public var stopped: Bool
    public var events: Int
    public init(stopped: Bool, events: Int) {
        self.stopped = stopped
        self.events = events
    }
}

/// `region.import`: the region as `region.list` shows it, and what the import did.
public struct RegionImportDocument: Hashable, Sendable, Codable {
    public var name: String
    public var hasTransit: Bool
    @NullWhenNil public var timeZone: String?
    /// How the zone was decided.
    @NullWhenNil public var timeZoneSource: String?
    @NullWhenNil public var importedAt: String?
    @NullWhenNil public var bounds: [Double]?
    @NullWhenNil public var transitFeeds: [TransitFeedDocument]?
    /// The same file was imported before; nothing was rebuilt.
    public var skipped: Bool
    /// Rows per kind (`streets`, `places`, `stops`…).
    public var counts: [String: Int]
    public var importDurationS: Double
    /// What the import kept or dropped on the user's behalf (feeds, zone), in words.
    public var notes: [String]

    public init(region: RegionDocument, skipped: Bool, counts: [String: Int], importDurationS: Double, notes: [String] = []) {
        name = region.name
        hasTransit = region.hasTransit
        timeZone = region.timeZone
        timeZoneSource = region.timeZoneSource
        importedAt = region.importedAt
        bounds = region.bounds
        transitFeeds = region.transitFeeds
        self.skipped = skipped
        self.counts = counts
        self.importDurationS = importDurationS
        self.notes = notes
    }
}

public struct RegionListDocument: Hashable, Sendable, Codable {
    public var regions: [RegionDocument]
    public init(regions: [RegionDocument]) { self.regions = regions }
}

/// `region.remove`, `place.remove`: the name removed.
public struct RemovedDocument: Hashable, Sendable, Codable {
    public var removed: String
    public init(removed: String) { self.removed = removed }
}

/// `plan.delete`: the plan deleted.
public struct DeletedDocument: Hashable, Sendable, Codable {
    public var deleted: Int64
    public init(deleted: Int64) { self.deleted = deleted }
}

/// `place.rename`.
public struct RenamedDocument: Hashable, Sendable, Codable {
    public var renamed: String
    public var to: String
    public init(renamed: String, to: String) {
        self.renamed = renamed
        self.to = to
    }
}

/// `history.clear`: `searches` or `routes`.
public struct ClearedDocument: Hashable, Sendable, Codable {
    public var cleared: String
    public init(cleared: String) { self.cleared = cleared }
}

public struct PlaceListDocument: Hashable, Sendable, Codable {
    public var places: [PlaceDocument]
    public init(places: [PlaceDocument]) { self.places = places }
}

public struct SearchDocument: Hashable, Sendable, Codable {
    public var results: [SearchResultDocument]
    /// When nothing matched exactly or as a prefix: the name of the closest typo match.
    @NullWhenNil public var didYouMean: String?
    /// The `near` place when it was typed as text and searched, with how it matched; else left out.
    public var near: PlaceDocument?
    /// Sentences about the text: a category word of a language a region searched is not written
    /// in ("apteekki is Finnish; in saopaulo: farmacia / pharmacy"); left out when there are none.
    public var notes: [String]?
    public init(results: [SearchResultDocument], didYouMean: String? = nil) {
        self.results = results
        self.didYouMean = didYouMean
    }
}

/// A search hit: the place, what kind of thing it is, how it matched, and how far from `near`.
public struct SearchResultDocument: Hashable, Sendable, Codable {
    public var name: String
    public var lat: Double
    public var lon: Double
    /// The region whose place index found it.
    @NullWhenNil public var region: String?
    /// `address`, `street`, `poi` or `stop`; `saved` for the user's saved places (`search.complete`).
    public var kind: String
    @NullWhenNil public var category: String?
    @NullWhenNil public var distanceM: Double?
    /// For addresses: the full address ("Hämeenkatu 10 B, 33100 Tampere").
    @NullWhenNil public var address: String?
    /// `exact`, `prefix`, `words` or `fuzzy`.
    public var match: String
    /// Set when the answer is not exactly what was asked, saying how (a nearest house number).
    @NullWhenNil public var approximate: String?

    public init(name: String, lat: Double, lon: Double, region: String? = nil, kind: String, category: String?,
                distanceM: Double?, address: String? = nil, match: String = "exact", approximate: String? = nil) {
        self.name = name
        self.lat = lat
        self.lon = lon
        self.region = region
        self.kind = kind
        self.category = category
        self.distanceM = distanceM
        self.address = address
        self.match = match
        self.approximate = approximate
    }
}

/// `where`: what is at a coordinate, the nearest address, place and street each with its
/// distance, and the label a plan node given as that coordinate is shown with.
public struct WhereDocument: Hashable, Sendable, Codable {
    public var lat: Double
    public var lon: Double
    @NullWhenNil public var region: String?
    /// "near Hämeenkatu 10" (an address or place within 50 m), "near Hämeenkatu" (a street within 300 m), or null.
    @NullWhenNil public var label: String?
    @NullWhenNil public var address: SearchResultDocument?
    @NullWhenNil public var place: SearchResultDocument?
    @NullWhenNil public var street: SearchResultDocument?

    public init(lat: Double, lon: Double, region: String?, label: String?, address: SearchResultDocument?,
                place: SearchResultDocument?, street: SearchResultDocument?) {
        self.lat = lat
        self.lon = lon
        self.region = region
        self.label = label
        self.address = address
        self.place = place
        self.street = street
    }
}

/// A box of coordinates (`within`): results must lie inside it.
public struct WireBox: Hashable, Sendable, Codable {
    public var minLat: Double
    public var minLon: Double
    public var maxLat: Double
    public var maxLon: Double
    public init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double) {
        self.minLat = minLat
        self.minLon = minLon
        self.maxLat = maxLat
        self.maxLon = maxLon
    }
}

public struct HistoryDocument: Hashable, Sendable, Codable {
    public var entries: [HistoryEntryDocument]
    public init(entries: [HistoryEntryDocument]) { self.entries = entries }
}

public struct PlanListDocument: Hashable, Sendable, Codable {
    public var plans: [PlanSummaryDocument]
    public init(plans: [PlanSummaryDocument]) { self.plans = plans }
}

/// `plan.remind`: the plan's reminder as it is now.
public struct PlanReminderDocument: Hashable, Sendable, Codable {
    public var id: Int64
    public var on: Bool
    /// Seconds before leaving the reminder comes.
    public var leadS: Double
    /// `plan` (its own lead) or `daemon` (`--remind-lead`).
    public var leadFrom: String
    /// Whether the daemon sends notifications at all (`--notify`).
    public var notify: Bool

    public init(id: Int64, on: Bool, leadS: Double, leadFrom: String, notify: Bool) {
        self.id = id
        self.on = on
        self.leadS = leadS
        self.leadFrom = leadFrom
        self.notify = notify
    }
}

/// `plan.link`: a Google Maps URL for one segment.
public struct LinkDocument: Hashable, Sendable, Codable {
    public var url: String
    /// `timed` (opens that departure) or `fallback` (places and mode only).
    public var form: String
    @NullWhenNil public var fallbackReason: String?
    public var segment: Int
    public var mode: WireMode

    public init(url: String, form: String, fallbackReason: String?, segment: Int, mode: WireMode) {
        self.url = url
        self.form = form
        self.fallbackReason = fallbackReason
        self.segment = segment
        self.mode = mode
    }
}
