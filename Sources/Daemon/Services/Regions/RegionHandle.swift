import Foundation
import Planner
import Streets
import Synchronization
import Transit

/// One version of an imported region as the daemon uses it: the manifest, and everything the
/// daemon opens on it (place index, street and transit routers). Each is
/// opened on first use and kept; the registry closes them all together when the region is
/// imported again, changed or removed, so no cache can outlive its version.
public final class RegionHandle: Sendable {
    public let manifest: RegionManifest
    /// The version directory `regions/<name>` pointed at when the handle was opened.
    public let directory: URL
    private let streets: any LegEngine
    private let transit: any LegEngine
    private let counters: DaemonCounters
    private let opened = Mutex(Opened())
    /// The GTFS import's report, read once (nil inside for a region without transit). A lock of
    /// its own: `status`, answered at once on a connection's thread, must not wait while
    /// another request opens an engine under `opened`.
    private let report = Mutex<GTFSImportReport??>(nil)

    private struct Opened {
        var placeIndex: PlaceIndex?
        var street: (any RegionLegSource)?
        var transit: (any RegionLegSource)?
        var closed = false
    }

    init(manifest: RegionManifest, directory: URL, streets: any LegEngine, transit: any LegEngine, counters: DaemonCounters) {
        self.manifest = manifest
        self.directory = directory
        self.streets = streets
        self.transit = transit
        self.counters = counters
    }

    public var name: String { manifest.name }

    /// The zone every time of this region is read and written in.
    public var timeZone: TimeZone { manifest.zone }

    /// True when `coordinate` is inside the region (with the one margin, `RegionBoundingBox.margin`).
    public func contains(_ coordinate: Coordinate) -> Bool { manifest.boundingBox.contains(coordinate) }

    public func placeIndex() throws -> PlaceIndex {
        try opened.withLock { opened in
            if let index = opened.placeIndex { return index }
            let index = try PlaceIndex(regionDirectory: directory)
            opened.placeIndex = index
            return index
        }
    }

    /// The engine for `mode`, opened on this version once.
    /// - throws: `RoutingError.unsupportedInRegion` when the region has no transit.
    public func legSource(for mode: TravelMode) throws -> any RegionLegSource {
        if mode == .transit, !manifest.hasTransit {
            throw RoutingError.unsupportedInRegion("region \(name) was imported without a GTFS feed")
        }
        let engine = mode == .transit ? transit : streets
        return try opened.withLock { opened in
            if let source = mode == .transit ? opened.transit : opened.street { return source }
            guard !opened.closed else {
                throw RoutingError.engineFailure("region \(name) was imported again or removed during the query; try again")
            }
            let source = try engine.open(manifest, directory: directory, counters: counters)
            if mode == .transit {
                opened.transit = source
                // Loading the timetable read transit.sqlite through SQLite's page cache and
                // unpacked every trip's rows: that working memory, freed on this request's thread,
                // would otherwise stay in its malloc arena for the daemon's life, per region (issue 43).
                MemoryTrim.releaseFreePages()
            } else {
                opened.street = source
            }
            return source
        }
    }

    /// The transit engine when this version already opened it (nothing is opened here).
    func openedTransit() -> (any RegionLegSource)? { opened.withLock { $0.transit } }

    /// The region's GTFS import report (its feeds' coverage and service hours), read once:
    /// `status` is on the hot path. Nil for a region without transit or an unreadable report.
    public func importReport() -> GTFSImportReport? {
        report.withLock { kept in
            if let known = kept { return known }
            let read = manifest.hasTransit ? try? GTFSImporter.lastReport(regionDirectory: directory) : nil
            kept = .some(read)
            return read
        }
    }

    /// Stops the workers opened on this version; later queries open nothing and fail.
    func close() {
        let sources = opened.withLock { opened in
            defer { opened = Opened(closed: true) }
            return [opened.street, opened.transit].compactMap { $0 }
        }
        for source in sources { source.close() }
    }
}
