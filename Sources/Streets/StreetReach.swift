import Foundation
import Planner

/// Which points a region's street map reaches: Routino snaps a point to a road no farther than
/// `StreetRouter.snapLimit`, so a point farther than that from every street can be neither left
/// nor reached. A GTFS feed often covers more than the OpenStreetMap extract; its stops out there
/// are kept out of the place index, so search never offers a place that routing then refuses.
///
/// ```swift
/// let reach = StreetReach(streets: try StreetLayer.read(regionDirectory: staging) ?? [])
/// reach.reaches(stop.coordinate)   // false 5 km past the extract's last road
/// ```
public struct StreetReach: Sendable {
    /// Metres from the nearest street within which a point counts as reached.
    public let distance: Double
    /// Local flat projection: metres per degree of latitude and of longitude (at the streets' mean latitude).
    private let metresPerLatitude = 111_195.0
    private let metresPerLongitude: Double
    /// Street segments in projected metres, and the segments touching each square cell of side `distance`.
    private let segments: [(ax: Double, ay: Double, bx: Double, by: Double)]
    private let cells: [Cell: [Int32]]

    private struct Cell: Hashable { var x: Int; var y: Int }

    public init(streets: [StreetLine], distance: Double = StreetRouter.snapLimit) {
        self.distance = max(1, distance)  // the cells' side: a metre at least
        let points = streets.flatMap(\.points)
        let meanLatitude = points.isEmpty ? 0 : points.reduce(0) { $0 + $1.latitude } / Double(points.count)
        metresPerLongitude = max(1, metresPerLatitude * cos(meanLatitude * .pi / 180))
        var segments: [(ax: Double, ay: Double, bx: Double, by: Double)] = []
        var cells: [Cell: [Int32]] = [:]
        for street in streets {
            // A one-point line is a segment of no length: still a road to snap to.
            let ends = street.points.count == 1 ? [street.points[0], street.points[0]] : street.points
            for (a, b) in zip(ends, ends.dropFirst()) {
                let segment = (ax: a.longitude * metresPerLongitude, ay: a.latitude * metresPerLatitude,
                               bx: b.longitude * metresPerLongitude, by: b.latitude * metresPerLatitude)
                let index = Int32(segments.count)
                segments.append(segment)
                let low = Self.cell(min(segment.ax, segment.bx), min(segment.ay, segment.by), side: self.distance)
                let high = Self.cell(max(segment.ax, segment.bx), max(segment.ay, segment.by), side: self.distance)
                for x in low.x...high.x {
                    for y in low.y...high.y { cells[Cell(x: x, y: y), default: []].append(index) }
                }
            }
        }
        self.segments = segments
        self.cells = cells
    }

    /// True when some street passes within `distance` of `coordinate`.
    public func reaches(_ coordinate: Coordinate) -> Bool {
        let px = coordinate.longitude * metresPerLongitude, py = coordinate.latitude * metresPerLatitude
        let centre = Self.cell(px, py, side: distance)
        for x in centre.x - 1...centre.x + 1 {
            for y in centre.y - 1...centre.y + 1 {
                for index in cells[Cell(x: x, y: y)] ?? [] where Self.distance(px, py, segments[Int(index)]) <= distance {
                    return true
                }
            }
        }
        return false
    }

    private static func cell(_ x: Double, _ y: Double, side: Double) -> Cell {
        Cell(x: Int((x / side).rounded(.down)), y: Int((y / side).rounded(.down)))
    }

    /// Metres from a point to a segment, in the flat projection.
    private static func distance(_ px: Double, _ py: Double, _ s: (ax: Double, ay: Double, bx: Double, by: Double)) -> Double {
        let dx = s.bx - s.ax, dy = s.by - s.ay
        let length = dx * dx + dy * dy
        let t = length == 0 ? 0 : max(0, min(1, ((px - s.ax) * dx + (py - s.ay) * dy) / length))
        let x = s.ax + t * dx - px, y = s.ay + t * dy - py
        return (x * x + y * y).squareRoot()
    }
}
