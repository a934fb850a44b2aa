import Foundation
import MapRendering
import Planner

/// A region's streets filed by the zoom-13 square (about 2 km) each crosses, so that a tile
/// looks only at the streets near it rather than at the whole city's.
struct TileStreets: Sendable {
    static let gridZoom = 13
    let streets: [StreetLine]
    private let cells: [Int: [Int32]]

    init(streets: [StreetLine]) {
        self.streets = streets
        var cells: [Int: [Int32]] = [:]
        for (index, street) in streets.enumerated() where street.points.count >= 2 {
            var west = Double.infinity, east = -Double.infinity, south = Double.infinity, north = -Double.infinity
            for p in street.points {
                west = min(west, p.longitude); east = max(east, p.longitude)
                south = min(south, p.latitude); north = max(north, p.latitude)
            }
            let (x0, y0) = Self.cell(Coordinate(latitude: north, longitude: west))
            let (x1, y1) = Self.cell(Coordinate(latitude: south, longitude: east))
            // A line's width reaches past its points: it is filed in the squares around them too.
            for x in (x0 - 1)...(x1 + 1) { for y in (y0 - 1)...(y1 + 1) { cells[Self.key(x, y), default: []].append(Int32(index)) } }
        }
        self.cells = cells
    }

    /// The streets that may cross `tile`.
    func near(_ tile: MapTile) -> [StreetLine] {
        let shift = Self.gridZoom - tile.zoom
        let xs: ClosedRange<Int>, ys: ClosedRange<Int>
        if shift >= 0 {
            xs = (tile.x << shift)...((tile.x + 1) << shift - 1)
            ys = (tile.y << shift)...((tile.y + 1) << shift - 1)
        } else {
            xs = (tile.x >> -shift)...(tile.x >> -shift)
            ys = (tile.y >> -shift)...(tile.y >> -shift)
        }
        var seen = Set<Int32>()
        var found: [StreetLine] = []
        for x in xs { for y in ys { for index in cells[Self.key(x, y)] ?? [] where seen.insert(index).inserted {
            found.append(streets[Int(index)])
        } } }
        return found
    }

    static func cell(_ c: Coordinate) -> (x: Int, y: Int) {
        let n = Double(1 << gridZoom)
        let latitude = max(-85, min(85, c.latitude)) * .pi / 180
        let x = Int(((c.longitude + 180) / 360 * n).rounded(.down))
        let y = Int(((1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * n).rounded(.down))
        return (x, y)
    }

    private static func key(_ x: Int, _ y: Int) -> Int { x << 32 | (y & 0xFFFF_FFFF) }
}
