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
