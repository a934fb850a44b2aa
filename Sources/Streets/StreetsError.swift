import Foundation

/// Why a region import, the region catalogue or the place index failed. Routing failures are
/// `RoutingError` (the planner's port); these are the operations around it. `code` goes on the wire.
public enum StreetsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Region names become directory names: lowercase letters, digits, `-` and `_`, 1–64 characters.
    case invalidRegionName(String)
    case sourceNotFound(String)
    /// The OSM file is not `.osm` or `.osm.pbf` (libreadosm and planetsplitter read only those).
    case unsupportedSourceFormat(String)
    /// Not an IANA time zone name that this system knows ("Europe/Helsinki").
    case invalidTimeZone(String)
    /// Neither `--time-zone`, a GTFS feed nor the region's position decided the zone.
    case timeZoneUndecided(String)
    /// Another import of the same region holds its lock.
    case importInProgress(String)
    /// A phase of the import failed; the previous version of the region is untouched.
    case importFailed(phase: String, message: String)
    /// A source is over its size limit (`SourceSizeLimit`); the message names it, the limit and its setting.
    case sourceTooLarge(String)
    /// Copying a pipe would leave the data directory's disk with less free space than the daemon keeps.
    case diskFull(String)
    case regionNotFound(String)
    case corruptManifest(region: String, message: String)
    /// `usefulmap-routino-worker` is neither beside the executable nor at `$USEFULMAP_ROUTINO_WORKER`.
    case workerNotFound(searched: [String])
    /// The region has no place index (imported by an older version, or a partial copy).
    case placeIndexMissing(String)
    /// The place index's database failed (the message carries SQLite's evidence).
    case placeIndexFailed(String)
    /// A stop given to `addStops` has an empty id or name, or an invalid coordinate.
    case invalidStop(String)
    /// A search or nearby-stops query with a bad argument (negative radius, zero limit, …).
    case invalidQuery(String)
    /// The region's street layer (`streets.bin`) is cut short or not ours.
    case streetLayerUnreadable(String)

    public var code: String {
        switch self {
        case .invalidRegionName: "invalid_region_name"
        case .sourceNotFound: "source_not_found"
        case .unsupportedSourceFormat: "unsupported_source_format"
        case .invalidTimeZone: "invalid_time_zone"
        case .timeZoneUndecided: "time_zone_undecided"
        case .importInProgress: "import_in_progress"
        case .importFailed: "import_failed"
        case .sourceTooLarge: "source_too_large"
        case .diskFull: "disk_full"
        case .regionNotFound: "region_not_found"
        case .corruptManifest: "corrupt_manifest"
        case .workerNotFound: "worker_not_found"
        case .placeIndexMissing: "place_index_missing"
        case .placeIndexFailed: "place_index_failed"
        case .invalidStop: "invalid_stop"
        case .invalidQuery: "invalid_query"
        case .streetLayerUnreadable: "street_layer_unreadable"
        }
    }

    public var description: String {
        switch self {
        case .invalidRegionName(let name):
            "invalid region name \"\(name)\": use 1-64 lowercase letters, digits, '-' or '_', starting with a letter or digit"
        case .sourceNotFound(let path): "source file not found: \(path)"
        case .unsupportedSourceFormat(let path): "unsupported OSM file \(path): expected .osm or .osm.pbf"
        case .invalidTimeZone(let zone): "unknown time zone \"\(zone)\": expected an IANA name such as Europe/Helsinki"
        case .timeZoneUndecided(let reason):
            "cannot decide the region's time zone (\(reason)): pass --time-zone ZONE, an IANA name such as Asia/Tokyo"
        case .importInProgress(let name): "region \(name) is already being imported"
        case let .importFailed(phase, message): "import failed while \(phase): \(message)"
        case .sourceTooLarge(let message): "source too large: \(message)"
        case .diskFull(let message): "disk full: \(message)"
        case .regionNotFound(let name): "no region named \(name)"
        case let .corruptManifest(region, message): "region \(region) has an unreadable manifest: \(message)"
        case .workerNotFound(let searched):
            "usefulmap-routino-worker not found (looked at \(searched.joined(separator: ", "))); set USEFULMAP_ROUTINO_WORKER"
        case .placeIndexMissing(let path): "no place index at \(path); re-import the region"
        case .placeIndexFailed(let message): "place index failed: \(message)"
        case .invalidStop(let message): "invalid stop: \(message)"
        case .invalidQuery(let message): "invalid query: \(message)"
        case .streetLayerUnreadable(let path): "the street layer \(path) is unreadable; re-import the region"
        }
    }
}
