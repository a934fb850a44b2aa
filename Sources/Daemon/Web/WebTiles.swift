import Executors
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
    /// The threads that draw squares: one core fewer than the machine has, as for the PNG maps.
    /// A connection's thread hands its square to them and waits for the picture.
    private let drawing = ExecutorPool<@Sendable () -> Void, DrawingThread>(
        name: "usefulmapd-tiles", locals: (0..<max(1, ProcessInfo.processInfo.activeProcessorCount - 1)).map { _ in DrawingThread() },
        perform: { draw, _ in draw() })

    static let defaultCacheLimitBytes = 256 << 20

    init(regions: RegionRegistry, dataDirectory: URL, cacheLimitBytes: Int = WebTiles.defaultCacheLimitBytes) {
        self.regions = regions
        self.cache = TileCache(folder: dataDirectory.appendingPathComponent("web-tiles", isDirectory: true), limitBytes: cacheLimitBytes)
    }

    deinit { drawing.stop() } // the threads end after the squares queued

    /// The PNG of one square. - throws: `StoreError`/`DaemonError` for an unknown region,
    /// `MapRenderingError.invalidTile`, `StreetsError.streetLayerUnreadable`.
    func png(region name: String, zoom: Int, x: Int, y: Int) throws -> Data {
        let tile = try MapTile(zoom: zoom, x: x, y: y)
        let handle = try regions.handle(named: name)
        let path = "\(name)/\(handle.directory.lastPathComponent)/\(zoom)/\(x)/\(y).png"
        if let cached = cache.read(path) { return cached }
        let streets = try streets(of: handle)
        let drawn = Handoff<Result<Data, any Error>>()
        let near = streets.near(tile)
        drawing.submit { drawn.hand(Result { try MapRenderer.renderTile(tile, streets: near) }) }
        let png = try drawn.wait().get()
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

/// A tile-drawing thread's own value (the pool's threads need one; they keep nothing).
private final class DrawingThread: Sendable {}
