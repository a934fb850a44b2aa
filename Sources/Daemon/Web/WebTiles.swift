import Foundation
import MapRendering
import Planner
import Streets
import Synchronization

/// The web map's squares (`/tiles/REGION/Z/X/Y.png`): drawn from the region's street layer
/// with the cairo renderer of the PNG maps, and kept on disk under `web-tiles/` in the data
/// directory, per region version (a new import draws afresh), at most `cacheLimitBytes` of them
/// (`TileCache`: the squares used longest ago go first).
final class WebTiles: Sendable {
    private let regions: RegionRegistry
    let cache: TileCache
    private let loaded = Mutex<[String: (version: URL, streets: TileStreets)]>([:])
    /// Squares drawn at once: one core fewer than the machine has, as for the PNG maps.
    private let drawing = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))

    static let defaultCacheLimitBytes = 256 << 20

    init(regions: RegionRegistry, dataDirectory: URL, cacheLimitBytes: Int = WebTiles.defaultCacheLimitBytes) {
        self.regions = regions
        self.cache = TileCache(folder: dataDirectory.appendingPathComponent("web-tiles", isDirectory: true), limitBytes: cacheLimitBytes)
    }

    /// The PNG of one square. - throws: `StoreError`/`DaemonError` for an unknown region,
    /// `MapRenderingError.invalidTile`, `StreetsError.streetLayerUnreadable`.
    func png(region name: String, zoom: Int, x: Int, y: Int) throws -> Data {
        let tile = try MapTile(zoom: zoom, x: x, y: y)
        let handle = try regions.handle(named: name)
        let path = "\(name)/\(handle.directory.lastPathComponent)/\(zoom)/\(x)/\(y).png"
        if let cached = cache.read(path) { return cached }
        let streets = try streets(of: handle)
        drawing.wait()
        defer { drawing.signal() }
        let png = try MapRenderer.renderTile(tile, streets: streets.near(tile))
        cache.write(png, at: path)
        return png
    }

    private func streets(of handle: RegionHandle) throws -> TileStreets {
        if let kept = loaded.withLock({ $0[handle.name] }), kept.version == handle.directory { return kept.streets }
        let streets = TileStreets(streets: try StreetLayer.read(regionDirectory: handle.directory) ?? [])
        loaded.withLock { $0[handle.name] = (handle.directory, streets) }
        return streets
    }
}
