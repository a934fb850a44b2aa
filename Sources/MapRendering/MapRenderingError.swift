/// Why a picture could not be drawn. `code` goes on the wire.
public enum MapRenderingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Width or height outside `MapRenderer.sizeRange`.
    case invalidSize(width: Int, height: Int)
    /// Nothing to draw: no leg of the plan has been computed.
    case emptyScene
    /// cairo reported a failure (out of memory, a write error).
    case cairo(String)
    /// A web map square off the grid, or at a zoom the daemon does not draw (`MapTile.zooms`).
    case invalidTile(zoom: Int, x: Int, y: Int)

    public var code: String {
        switch self {
        case .invalidSize: "invalid_params"
        case .emptyScene: "no_route"
        case .cairo: "internal_error"
        case .invalidTile: "invalid_params"
        }
    }

    public var description: String {
        switch self {
        case let .invalidSize(width, height):
            "picture size \(width)x\(height) is out of range: width and height must be \(MapRenderer.sizeRange.lowerBound) to \(MapRenderer.sizeRange.upperBound) pixels"
        case .emptyScene: "nothing to draw: no leg of the plan has a route yet"
        case .cairo(let message): "drawing failed: \(message)"
        case let .invalidTile(zoom, x, y):
            "no map square \(zoom)/\(x)/\(y): zoom must be \(MapTile.zooms.lowerBound) to \(MapTile.zooms.upperBound), x and y 0 to 2^zoom - 1"
        }
    }
}
