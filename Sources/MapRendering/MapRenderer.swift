import CCairo
import Foundation
import Planner

/// Draws a scene on the region's streets with cairo, as PNG or SVG bytes.
///
/// ```swift
/// let png = try MapRenderer.render(.plan(geometry, timeZone: zone), streets: streets,
///                                  width: 800, height: 600, format: .png)
/// ```
/// Layers, bottom to top: background, streets grey by class, routes on a white casing, places
/// with their labels, the legend, a scale bar and "© OpenStreetMap contributors".
public enum MapRenderer {
    /// Pixels allowed for either side of a picture.
    public static let sizeRange = 64...4096
    public static let attribution = "© OpenStreetMap contributors"

    /// The projection `render` uses for `scene` at that size (tests sample pixels with it).
    public static func projection(for scene: MapScene, width: Int, height: Int) -> MapProjection {
        MapProjection(fitting: scene.extent, width: width, height: height)
    }

    /// - throws: `MapRenderingError`.
    public static func render(_ scene: MapScene, streets: [StreetLine], width: Int, height: Int,
                              format: MapImageFormat) throws -> Data {
        guard sizeRange.contains(width), sizeRange.contains(height) else {
            throw MapRenderingError.invalidSize(width: width, height: height)
        }
        guard !scene.extent.isEmpty else { throw MapRenderingError.emptyScene }
        let sink = ByteSink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let surface: OpaquePointer?
        switch format {
        case .png: surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        case .svg: surface = cairo_svg_surface_create_for_stream(ByteSink.write, context, Double(width), Double(height))
        }
        guard let surface else { throw MapRenderingError.cairo("no surface") }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        guard let cr = cairo_create(surface) else { throw MapRenderingError.cairo("no drawing context") }
        let projection = projection(for: scene, width: width, height: height)
        draw(scene, streets: streets, projection: projection, on: cr)
        let drawn = cairo_status(cr)
        cairo_destroy(cr)
        try check(drawn)
        switch format {
        case .png: try check(cairo_surface_write_to_png_stream(surface, ByteSink.write, context))
        case .svg: cairo_surface_finish(surface)
        }
        try check(cairo_surface_status(surface))
        return sink.data
    }

    // MARK: - Layers

    static func draw(_ scene: MapScene, streets: [StreetLine], projection: MapProjection, on cr: OpaquePointer) {
        setColor(cr, MapStyle.background)
        cairo_paint(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        drawStreets(streets, projection: projection, on: cr)
        for route in scene.routes where route.points.count >= 2 {
            path(route.points, projection: projection, on: cr)
            setColor(cr, MapStyle.casing)
            cairo_set_line_width(cr, route.width + 3)
            cairo_stroke(cr)
        }
        for route in scene.routes where route.points.count >= 2 {
            path(route.points, projection: projection, on: cr)
            setColor(cr, route.color)
            cairo_set_line_width(cr, route.width)
            cairo_stroke(cr)
        }
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 12)
        for marker in scene.markers {
            let (x, y) = projection.pixel(of: marker.coordinate)
            cairo_arc(cr, x, y, 5, 0, 2 * .pi)
            setColor(cr, MapStyle.casing)
            cairo_fill_preserve(cr)
            setColor(cr, MapStyle.ink)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
        }
        var placed: [(x: ClosedRange<Double>, y: ClosedRange<Double>)] = []
        for marker in scene.markers {
            let (x, y) = projection.pixel(of: marker.coordinate)
            let width = textWidth(marker.label, on: cr)
            // Right of the point, or left of it when that would leave the picture; below an
            // earlier label it would cover (two stops of one square).
            let labelX = max(4, x + 9 + width > Double(projection.width) - 4 ? x - 9 - width : x + 9)
            var baseline = y + 4
            while let overlapped = placed.first(where: { $0.x.overlaps(labelX...(labelX + width)) && $0.y.overlaps((baseline - 12)...(baseline + 3)) }) {
                baseline = overlapped.y.upperBound + 13
            }
            placed.append((labelX...(labelX + width), (baseline - 12)...(baseline + 3)))
            haloText(marker.label, x: labelX, y: baseline, on: cr)
        }
        drawLegend(scene.legend, on: cr)
        drawScaleBar(projection, on: cr)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 10)
        haloText(attribution, x: Double(projection.width) - textWidth(attribution, on: cr) - 6,
                 y: Double(projection.height) - 6, on: cr)
    }

    static func drawStreets(_ streets: [StreetLine], projection: MapProjection, on cr: OpaquePointer, widthScale: Double = 1) {
        let corner = projection.coordinate(atX: 0, y: 0)
        let opposite = projection.coordinate(atX: Double(projection.width), y: Double(projection.height))
        let latitudes = opposite.latitude...corner.latitude, longitudes = corner.longitude...opposite.longitude
        // Paths under major roads: draw the least important class first, and only the classes
        // the scale can show (footpaths of a whole city are a grey smear, and a heavy file).
        for streetClass in StreetClass.allCases.reversed() where projection.metresPerPixel <= MapStyle.finestScale(of: streetClass) {
            let (color, width) = MapStyle.street(streetClass)
            for street in streets where street.streetClass == streetClass && street.points.count >= 2 {
                guard street.points.contains(where: { latitudes.contains($0.latitude) && longitudes.contains($0.longitude) })
                        || crosses(street.points, latitudes: latitudes, longitudes: longitudes) else { continue }
                path(street.points, projection: projection, on: cr)
            }
            setColor(cr, color)
            cairo_set_line_width(cr, width * widthScale)
            cairo_stroke(cr)
        }
    }

    /// A street whose points all lie outside the picture may still cross it (a long straight road).
    static func crosses(_ points: [Coordinate], latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) -> Bool {
        guard let first = points.first else { return false }
        var south = first.latitude, north = first.latitude, west = first.longitude, east = first.longitude
        for p in points.dropFirst() {
            south = min(south, p.latitude); north = max(north, p.latitude)
            west = min(west, p.longitude); east = max(east, p.longitude)
        }
        return south <= latitudes.upperBound && north >= latitudes.lowerBound
            && west <= longitudes.upperBound && east >= longitudes.lowerBound
    }

    static func drawLegend(_ legend: [MapScene.LegendEntry], on cr: OpaquePointer) {
        guard !legend.isEmpty else { return }
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 11)
        let width = (legend.map { textWidth($0.label, on: cr) }.max() ?? 0) + 40
        cairo_rectangle(cr, 6, 6, width, Double(legend.count) * 16 + 8)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.85)
        cairo_fill(cr)
        for (index, entry) in legend.enumerated() {
            let y = 18 + Double(index) * 16
            cairo_move_to(cr, 12, y - 4)
            cairo_line_to(cr, 32, y - 4)
            setColor(cr, entry.color)
            cairo_set_line_width(cr, 4)
            cairo_stroke(cr)
            setColor(cr, MapStyle.ink)
            cairo_move_to(cr, 38, y)
            cairo_show_text(cr, entry.label)
        }
    }

    /// A bar of a round length (1, 2 or 5 × 10ⁿ metres) at most a quarter of the picture wide.
    static func drawScaleBar(_ projection: MapProjection, on cr: OpaquePointer) {
        let longest = projection.metresPerPixel * Double(projection.width) / 4
        guard longest.isFinite, longest > 0 else { return }
        let power = pow(10, floor(log10(longest)))
        let metres = [5, 2, 1].map { $0 * power }.first { $0 <= longest } ?? power
        let pixels = metres / projection.metresPerPixel
        let x = 10.0, y = Double(projection.height) - 12
        cairo_move_to(cr, x, y - 5)
        cairo_line_to(cr, x, y)
        cairo_line_to(cr, x + pixels, y)
        cairo_line_to(cr, x + pixels, y - 5)
        setColor(cr, MapStyle.casing)
        cairo_set_line_width(cr, 4)
        cairo_stroke_preserve(cr)
        setColor(cr, MapStyle.ink)
        cairo_set_line_width(cr, 1.5)
        cairo_stroke(cr)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 10)
        haloText(metres >= 1000 ? "\(formatted(metres / 1000)) km" : "\(formatted(metres)) m", x: x + 4, y: y - 6, on: cr)
    }

    // MARK: - Helpers

    static func formatted(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    static func path(_ points: [Coordinate], projection: MapProjection, on cr: OpaquePointer) {
        for (index, point) in points.enumerated() {
            let (x, y) = projection.pixel(of: point)
            if index == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
        }
    }

    /// Text with a white outline, readable over streets and routes.
    static func haloText(_ text: String, x: Double, y: Double, on cr: OpaquePointer) {
        cairo_move_to(cr, x, y)
        cairo_text_path(cr, text)
        setColor(cr, MapStyle.casing)
        cairo_set_line_width(cr, 3)
        cairo_stroke(cr)
        cairo_move_to(cr, x, y)
        setColor(cr, MapStyle.ink)
        cairo_show_text(cr, text)
    }

    static func textWidth(_ text: String, on cr: OpaquePointer) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    static func setColor(_ cr: OpaquePointer, _ color: MapColor) {
        cairo_set_source_rgb(cr, color.red, color.green, color.blue)
    }

    static func check(_ status: cairo_status_t) throws {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw MapRenderingError.cairo(String(cString: cairo_status_to_string(status)))
        }
    }
}

/// Collects what cairo writes to a stream (PNG or SVG bytes).
final class ByteSink {
    var data = Data()

    static let write: cairo_write_func_t = { closure, bytes, length in
        guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
        Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
        return CAIRO_STATUS_SUCCESS
    }
}
