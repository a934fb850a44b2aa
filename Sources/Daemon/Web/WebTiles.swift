import Foundation
import MapRendering
import Planner
import Streets
import Synchronization

/// The web map's squares (`/tiles/REGION/Z/X/Y.png`): drawn from the region's street layer
/// with the cairo renderer of the PNG maps, and kept on disk under `web-tiles/` in the data
/// directory, per region version (a new import draws afresh). When the squares kept pass
/// `cacheLimitBytes` the folder is emptied and filled again from what is asked next.
final class WebTiles: Sendable {
    private let regions: RegionRegistry
    private let folder: URL
    let cacheLimitBytes: Int
    private struct State {
        var loaded: [String: (version: URL, streets: TileStreets)] = [:]
        /// Bytes on disk; nil until the folder was measured once.
        var cachedBytes: Int?
    }
    private let state = Mutex(State())
    /// Squares drawn at once: one core fewer than the machine has, as for the PNG maps.
    private let drawing = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))

    init(regions: RegionRegistry, dataDirectory: URL, cacheLimitBytes: Int = 256 << 20) {
        self.regions = regions
        self.folder = dataDirectory.appendingPathComponent("web-tiles", isDirectory: true)
        self.cacheLimitBytes = cacheLimitBytes
    }

    /// The PNG of one square. - throws: `StoreError`/`DaemonError` for an unknown region,
    /// `MapRenderingError.invalidTile`, `StreetsError.streetLayerUnreadable`.
    func png(region name: String, zoom: Int, x: Int, y: Int) throws -> Data {
        let tile = try MapTile(zoom: zoom, x: x, y: y)
        let handle = try regions.handle(named: name)
        let file = folder.appendingPathComponent("\(name)/\(handle.directory.lastPathComponent)/\(zoom)/\(x)/\(y).png")
        if let cached = FileManager.default.contents(atPath: file.path) { return cached }
        let streets = try streets(of: handle)
        drawing.wait()
        defer { drawing.signal() }
        let png = try MapRenderer.renderTile(tile, streets: streets.near(tile))
        keep(png, at: file)
        return png
    }

    private func streets(of handle: RegionHandle) throws -> TileStreets {
        if let loaded = state.withLock({ $0.loaded[handle.name] }), loaded.version == handle.directory { return loaded.streets }
        let streets = TileStreets(streets: try StreetLayer.read(regionDirectory: handle.directory) ?? [])
        state.withLock { $0.loaded[handle.name] = (handle.directory, streets) }
        return streets
    }

    /// Writes a square to the cache (a failure only costs drawing it again).
    private func keep(_ png: Data, at file: URL) {
        let over = state.withLock { state -> Bool in
            let bytes = (state.cachedBytes ?? measure()) + png.count
            state.cachedBytes = bytes > cacheLimitBytes ? png.count : bytes
            return bytes > cacheLimitBytes
        }
        if over { try? FileManager.default.removeItem(at: folder) }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? png.write(to: file, options: .atomic)
    }

    private func measure() -> Int {
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey]) else { return 0 }
        var bytes = 0
        for case let file as URL in files { bytes += (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0 }
        return bytes
    }
}
