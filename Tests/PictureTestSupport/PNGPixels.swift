import CCairo
import Foundation
import MapRendering

/// A PNG read back with cairo, to look at its pixels (shared by the map and daemon tests).
public struct PNGPixels {
    public let width: Int
    public let height: Int
    private let words: [UInt32]
    private let stride: Int

    public init(_ data: Data) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID().uuidString).png")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let surface = cairo_image_surface_create_from_png(file.path),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw CocoaError(.fileReadCorruptFile)
        }
        defer { cairo_surface_destroy(surface) }
        let rowWords = Int(cairo_image_surface_get_stride(surface)) / 4, rows = Int(cairo_image_surface_get_height(surface))
        width = Int(cairo_image_surface_get_width(surface))
        height = rows
        stride = rowWords
        words = cairo_image_surface_get_data(surface).withMemoryRebound(to: UInt32.self, capacity: rowWords * rows) {
            Array(UnsafeBufferPointer(start: $0, count: rowWords * rows))
        }
    }

    public func color(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let word = words[y * stride + x]
        return (UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF))
    }

    /// Whether a pixel within `radius` of (x, y) has `color` (±12 per channel, for antialiasing).
    public func has(_ color: MapColor, near x: Double, _ y: Double, radius: Int = 2) -> Bool {
        let target = color.bytes
        for dy in -radius...radius {
            for dx in -radius...radius {
                let px = Int(x.rounded()) + dx, py = Int(y.rounded()) + dy
                guard px >= 0, py >= 0, px < width, py < height else { continue }
                let c = self.color(x: px, y: py)
                if abs(Int(c.red) - Int(target.red)) <= 12, abs(Int(c.green) - Int(target.green)) <= 12,
                   abs(Int(c.blue) - Int(target.blue)) <= 12 {
                    return true
                }
            }
        }
        return false
    }
}
