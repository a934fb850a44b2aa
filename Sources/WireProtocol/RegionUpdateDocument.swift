/// `region.update`: what each region's check found and what it rebuilt.
public struct RegionUpdateDocument: Hashable, Sendable, Codable {
    public var regions: [RegionUpdateResult]
    public init(regions: [RegionUpdateResult]) { self.regions = regions }
}

/// One region's update: each source checked, and what was rebuilt: `nothing`, `timetable`
/// (a new GTFS feed: the streets kept) or `streets and timetable` (a new OSM extract).
public struct RegionUpdateResult: Hashable, Sendable, Codable {
    public var name: String
    public var rebuilt: String
    public var sources: [SourceCheckDocument]
    /// Why the region could not be updated (a source failed, the rebuild failed); it keeps
    /// serving its current version.
    public var error: WireError?

    public init(name: String, rebuilt: String, sources: [SourceCheckDocument], error: WireError? = nil) {
        self.name = name
        self.rebuilt = rebuilt
        self.sources = sources
        self.error = error
    }
}

/// One source's check: `source` as `region.list` shows it (a URL without credentials).
public struct SourceCheckDocument: Hashable, Sendable, Codable {
    public var role: String
    public var source: String
    public var changed: Bool
    public var error: WireError?

    public init(role: String, source: String, changed: Bool, error: WireError? = nil) {
        self.role = role
        self.source = source
        self.changed = changed
        self.error = error
    }
}

/// A region's last check of its sources (by `region update` or the daemon's own schedule)
/// since the daemon started.
public struct RegionCheckDocument: Hashable, Sendable, Codable {
    /// When it was checked, in the machine's zone.
    public var at: String
    /// What it rebuilt: `nothing`, `timetable` or `streets and timetable`.
    public var rebuilt: String
    /// Why it failed; the next check comes sooner (`next_check`), backing off.
    public var error: WireError?
    /// Checks failed in a row.
    public var failures: Int
    /// When the daemon checks it next on its own (null with `update_interval = never`).
    public var nextCheck: String?

    public init(at: String, rebuilt: String, error: WireError? = nil, failures: Int = 0, nextCheck: String? = nil) {
        self.at = at
        self.rebuilt = rebuilt
        self.error = error
        self.failures = failures
        self.nextCheck = nextCheck
    }
}

extension RegionCheckDocument {
    /// Read by `JSONFields`, the one decoder of `status`'s documents.
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(at: try fields.string("at"), rebuilt: try fields.string("rebuilt"),
                  error: try fields.optionalDecoded("error", as: WireError.self), failures: try fields.int("failures"),
                  nextCheck: try fields.optionalString("next_check"))
    }
}
