import Foundation
import Planner
import Streets
import Synchronization
import Transit
import WireProtocol

/// The imported regions as the daemon uses them: which region a coordinate is in, its time
/// zone, and its place index (opened once per region version and reused).
public final class RegionRegistry: Sendable {
    public let catalog: RegionCatalog
    private let indexes = Mutex<[String: (version: String, index: PlaceIndex)]>([:])
    /// The manifests, read once and again after `invalidate` (only this daemon imports or
    /// removes regions in its data directory, and it invalidates when it does).
    private let manifests = Mutex<[RegionManifest]?>(nil)
    /// Wire descriptions, built once per region version: `status` is on the hot path and the
    /// feeds' service periods come from the timetable file.
    private let documents = Mutex<[String: RegionDocument]>([:])

    public init(dataDirectory: URL) {
        catalog = RegionCatalog(dataDirectory: dataDirectory)
    }

    public func regions() throws -> [RegionManifest] {
        if let cached = manifests.withLock({ $0 }) { return cached }
        let read = try catalog.regions()
        manifests.withLock { $0 = read }
        return read
    }

    /// Every region, or `DaemonError.noRegion` when none is imported.
    public func requireRegions() throws -> [RegionManifest] {
        let all = try regions()
        guard !all.isEmpty else { throw DaemonError.noRegion }
        return all
    }

    /// The region containing `coordinate` (with a 2 km margin), if any.
    public func region(containing coordinate: Coordinate) throws -> RegionManifest? {
        try regions().first { $0.boundingBox.contains(coordinate, margin: 2_000) }
    }

    /// The region a request is about: the one containing `coordinate`, else the only/first one.
    /// - throws: `DaemonError.noRegion` when none is imported.
    public func primaryRegion(for coordinate: Coordinate?) throws -> RegionManifest {
        let all = try requireRegions()
        if let coordinate, let inside = all.first(where: { $0.boundingBox.contains(coordinate, margin: 2_000) }) {
            return inside
        }
        return all[0]
    }

    /// The time zone instants are written in: the region's, else the machine's.
    public func timeZone(for coordinate: Coordinate?) -> TimeZone {
        if let region = try? primaryRegion(for: coordinate), let zone = TimeZone(identifier: region.timeZone) {
            return zone
        }
        return TimeZone.current
    }

    /// The region's place index, reopened when the region was imported again.
    public func placeIndex(of region: RegionManifest) throws -> PlaceIndex {
        let directory = catalog.directory(of: region.name)
        let version = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory.path)) ?? directory.path
        if let cached = indexes.withLock({ $0[region.name] }), cached.version == version {
            return cached.index
        }
        let index = try PlaceIndex(regionDirectory: directory)
        indexes.withLock { $0[region.name] = (version, index) }
        return index
    }

    /// The region as `region.list` and `status` describe it, with the service period of each
    /// feed its last GTFS import stored (none for a region without transit).
    public func document(of region: RegionManifest) -> RegionDocument {
        if let cached = documents.withLock({ $0[region.name] }) { return cached }
        let report = try? GTFSImporter.lastReport(regionDirectory: catalog.directory(of: region.name))
        let document = WireDocuments.region(region, servicePeriods: report?.servicePeriods ?? [])
        documents.withLock { $0[region.name] = document }
        return document
    }

    /// Forgets cached indexes (after an import or removal).
    public func invalidate(_ name: String) {
        _ = indexes.withLock { $0.removeValue(forKey: name) }
        _ = documents.withLock { $0.removeValue(forKey: name) }
        manifests.withLock { $0 = nil }
    }
}
