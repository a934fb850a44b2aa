import Streets
import Transit

/// What an import may take from the disk: each source's size (checked before it is read, and
/// while a pipe is copied) and the free space a pipe's copy leaves on the data directory's disk
/// (so a `/dev/zero` given as the OSM file cannot fill it).
public struct ImportSourceLimits: Hashable, Sendable {
    public var osm = RegionImporter.defaultOSMLimit
    /// A GTFS feed's zip: no larger than the feed it may give uncompressed (`gtfs_max_feed_mb`).
    public var feed = Self.feedLimit(GTFSLimits().maxFeedBytes)
    /// Free bytes a copy of a pipe keeps on the data directory's disk (`min_free_mb`), like
    /// the room SQLite needs to write the database.
    public var minimumFreeBytes: Int64 = 1 << 30

    public init() {}

    static func feedLimit(_ bytes: Int64) -> SourceSizeLimit {
        SourceSizeLimit(bytes: bytes, kind: "a GTFS feed", setting: "gtfs_max_feed_mb")
    }
}
