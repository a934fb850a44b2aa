import CCairo
import Foundation
import Planner

/// One square of the web map's slippy grid (`Z/X/Y`, 256 pixels, Web Mercator, north up), as
/// Leaflet asks for it.
///
/// ```swift
/// let tile = try MapTile(zoom: 14, x: 9344, y: 4480)
/// let png = try MapRenderer.renderTile(tile, streets: streets)
/// ```
public struct MapTile: Hashable, Sendable {
    public static let size = 256
    /// The zooms the daemon draws: a city's blocks at 10, a building's entrance at 18.
    public static let zooms = 10...18

    public let zoom: Int
    public let x: Int
    public let y: Int

    /// - throws: `MapRenderingError.invalidTile` for a zoom outside `zooms` or a square off the grid.
    public init(zoom: Int, x: Int, y: Int) throws {
        guard Self.zooms.contains(zoom), (0..<(1 << zoom)).contains(x), (0..<(1 << zoom)).contains(y) else {
            throw MapRenderingError.invalidTile(zoom: zoom, x: x, y: y)
        }
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The projection of this square's pixels.
    public var projection: MapProjection {
        let scale = Double(Self.size << zoom) / (2 * .pi)
        // Mercator units of the square's centre: x from -π at the left edge, y from +π at the top.
        let centreX = (Double(x) + 0.5) / Double(1 << zoom) * 2 * .pi - .pi
        let centreY = .pi - (Double(y) + 0.5) / Double(1 << zoom) * 2 * .pi
        return MapProjection(scale: scale, centreX: centreX, centreY: centreY, width: Self.size, height: Self.size)
    }

    /// The square's corners: north-west and south-east.
    public var corners: (northWest: Coordinate, southEast: Coordinate) {
        let projection = projection
        return (projection.coordinate(atX: 0, y: 0), projection.coordinate(atX: Double(Self.size), y: Double(Self.size)))
    }
}

extension MapProjection {
    init(scale: Double, centreX: Double, centreY: Double, width: Int, height: Int) {
        self.width = width
        self.height = height
        self.scale = scale
        self.centreX = centreX
        self.centreY = centreY
    }
}

extension MapRenderer {
    /// The streets of one square, without legend, scale bar or attribution (the web map shows
    /// `attribution` once, in its corner). Streets reaching past the edge are drawn to it, so
    /// neighbouring squares meet.
    /// - throws: `MapRenderingError`.
    public static func renderTile(_ tile: MapTile, streets: [StreetLine]) throws -> Data {
        let sink = ByteSink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(MapTile.size), Int32(MapTile.size)) else {
            throw MapRenderingError.cairo("no surface")
        }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        guard let cr = cairo_create(surface) else { throw MapRenderingError.cairo("no drawing context") }
        let projection = tile.projection
        setColor(cr, MapStyle.background)
        cairo_paint(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        // A street's width grows with the zoom past 15, where a pixel is under 2.5 m.
        let widen = max(1, Double(tile.zoom - 14))
        drawStreets(streets, projection: projection, on: cr, widthScale: widen)
        let drawn = cairo_status(cr)
        cairo_destroy(cr)
        try check(drawn)
        try check(cairo_surface_write_to_png_stream(surface, ByteSink.write, context))
        return sink.data
    }
}
