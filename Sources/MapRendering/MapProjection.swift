import Foundation
import Planner

/// Web Mercator scaled to fit a set of points into a picture with a margin, north up.
///
/// ```swift
/// let projection = MapProjection(fitting: points, width: 800, height: 600)
/// let (x, y) = projection.pixel(of: stop)
/// ```
public struct MapProjection: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// Pixels per Mercator unit (a unit is one Earth radius at the equator).
    let scale: Double
    let centreX: Double
    let centreY: Double

    /// - parameter margin: pixels kept free on each side (labels go there).
    public init(fitting points: [Coordinate], width: Int, height: Int, margin: Double = 48) {
        self.width = width
        self.height = height
        let xs = points.map { Self.mercatorX($0) }, ys = points.map { Self.mercatorY($0) }
        let minX = xs.min() ?? 0, maxX = xs.max() ?? 0, minY = ys.min() ?? 0, maxY = ys.max() ?? 0
        centreX = (minX + maxX) / 2
        centreY = (minY + maxY) / 2
        let usableWidth = max(1, Double(width) - 2 * margin), usableHeight = max(1, Double(height) - 2 * margin)
        // A plan of one point (or points on top of each other) is shown at about 1 m per pixel.
        let spanX = max(maxX - minX, 1e-7 * usableWidth), spanY = max(maxY - minY, 1e-7 * usableHeight)
        scale = min(usableWidth / spanX, usableHeight / spanY)
    }

    /// The pixel (from the top-left corner) a coordinate falls on.
    public func pixel(of coordinate: Coordinate) -> (x: Double, y: Double) {
        (Double(width) / 2 + (Self.mercatorX(coordinate) - centreX) * scale,
         Double(height) / 2 - (Self.mercatorY(coordinate) - centreY) * scale)
    }

    /// The coordinate under a pixel (the inverse of `pixel(of:)`).
    public func coordinate(atX x: Double, y: Double) -> Coordinate {
        let mx = centreX + (x - Double(width) / 2) / scale
        let my = centreY - (y - Double(height) / 2) / scale
        return Coordinate(latitude: atan(sinh(my)) * 180 / .pi, longitude: mx * 180 / .pi)
    }

    /// Ground metres one pixel covers at the picture's centre.
    public var metresPerPixel: Double {
        let latitude = atan(sinh(centreY))
        return Coordinate.earthRadiusMetres * cos(latitude) / scale
    }

    static func mercatorX(_ c: Coordinate) -> Double { c.longitude * .pi / 180 }

    static func mercatorY(_ c: Coordinate) -> Double {
        let latitude = max(-85, min(85, c.latitude)) * .pi / 180
        return log(tan(.pi / 4 + latitude / 2))
    }
}
