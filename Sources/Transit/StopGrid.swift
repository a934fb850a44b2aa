import Foundation
import Planner

/// A uniform grid over stop coordinates for "stops within r metres" without scanning all.
/// Cells are sized in metres using an equirectangular projection around each latitude band,
/// which is plenty for radii of a few kilometres.
struct StopGrid: Sendable {
    private let coordinates: [Coordinate]
    private let cellDegreesLatitude: Double
    private let cellDegreesLongitude: Double
    /// The cells holding stops, by key in ascending order, and their stops as compressed rows:
    /// cell `cellKeys[k]` holds `cellStops[cellStart[k]..<cellStart[k + 1]]`. A binary search
    /// finds a cell for a few comparisons where a dictionary hashed every key it was asked.
    private let cellKeys: [Int64]
    private let cellStart: [Int32]
    private let cellStops: [Int32]

    init(stops coordinates: [Coordinate], cellMetres: Double) {
        self.coordinates = coordinates
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        cellDegreesLatitude = cellMetres / metresPerDegree
        let meanLatitude = coordinates.isEmpty ? 0 : coordinates.map(\.latitude).reduce(0, +) / Double(coordinates.count)
        // Longitude cells sized at the most poleward latitude would be safest; use the mean with margin via search span.
        cellDegreesLongitude = cellMetres / (metresPerDegree * max(0.05, cos(meanLatitude * .pi / 180)))
        let (latitudeStep, longitudeStep) = (cellDegreesLatitude, cellDegreesLongitude)
        let keyed = coordinates.enumerated().map { i, c in
            (key: Self.key(Int(floor(c.latitude / latitudeStep)), Int(floor(c.longitude / longitudeStep))), stop: Int32(i))
        }.sorted { ($0.key, $0.stop) < ($1.key, $1.stop) }
        var keys: [Int64] = [], start: [Int32] = []
        for (k, entry) in keyed.enumerated() where keys.last != entry.key {
            keys.append(entry.key)
            start.append(Int32(k))
        }
        start.append(Int32(keyed.count))
        cellKeys = keys
        cellStart = start
        cellStops = keyed.map(\.stop)
    }

    /// The stops of the cell at `key` (an empty range for a cell without any).
    private func cell(_ key: Int64) -> Range<Int> {
        var low = 0, high = cellKeys.count
        while low < high {
            let mid = (low + high) / 2
            if cellKeys[mid] < key { low = mid + 1 } else { high = mid }
        }
        guard low < cellKeys.count, cellKeys[low] == key else { return 0..<0 }
        return Int(cellStart[low])..<Int(cellStart[low + 1])
    }

    private static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 ^ Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: column))) }

    /// Stops within `radius` metres of `point`, nearest first.
    func stops(within radius: Double, of point: Coordinate) -> [(index: Int, distance: Double)] {
        guard point.isValid, radius >= 0 else { return [] }
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let latSpan = radius / metresPerDegree
        let lonSpan = radius / (metresPerDegree * max(0.01, cos(min(89, abs(point.latitude) + latSpan) * .pi / 180)))
        let r0 = Int(floor((point.latitude - latSpan) / cellDegreesLatitude)), r1 = Int(floor((point.latitude + latSpan) / cellDegreesLatitude))
        let c0 = Int(floor((point.longitude - lonSpan) / cellDegreesLongitude)), c1 = Int(floor((point.longitude + lonSpan) / cellDegreesLongitude))
        let near = FlatNeighbourhood(around: point, radius: radius)
        var found: [(index: Int, distance: Double)] = []
        found.reserveCapacity(32)
        if (r1 - r0 + 1) * (c1 - c0 + 1) > cellKeys.count {
            for (i, c) in coordinates.enumerated() where near.admits(c) {
                let d = point.distance(to: c)
                if d <= radius { found.append((i, d)) }
            }
        } else {
            for row in r0...r1 {
                for column in c0...c1 {
                    for k in cell(Self.key(row, column)) where near.admits(coordinates[Int(cellStops[k])]) {
                        let i = Int(cellStops[k])
                        let d = point.distance(to: coordinates[i])
                        if d <= radius { found.append((i, d)) }
                    }
                }
            }
        }
        found.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
        return found
    }

    /// A cheap first test before the great-circle distance (a sine, two cosines and an arc sine
    /// each; the stops around both ends of a query took a tenth of its instructions): a flat
    /// projection at the point's latitude, off by under 1 % within 5 km below 85° (a relative
    /// error about the tangent of the latitude times the angle spanned), refuses only stops more
    /// than 2 % beyond the radius. Farther, nearer the poles or across the antimeridian it
    /// refuses nothing.
    private struct FlatNeighbourhood {
        let point: Coordinate
        let metresPerDegreeLatitude: Double
        let metresPerDegreeLongitude: Double
        let limitSquared: Double
        let applies: Bool

        init(around point: Coordinate, radius: Double) {
            self.point = point
            metresPerDegreeLatitude = Coordinate.earthRadiusMetres * .pi / 180
            metresPerDegreeLongitude = metresPerDegreeLatitude * cos(point.latitude * .pi / 180)
            let limit = radius * 1.02 + 1
            limitSquared = limit * limit
            applies = abs(point.latitude) < 85 && radius <= 5_000
        }

        @inline(__always) func admits(_ c: Coordinate) -> Bool {
            guard applies, abs(c.longitude - point.longitude) < 180 else { return true }
            let north = (c.latitude - point.latitude) * metresPerDegreeLatitude
            let east = (c.longitude - point.longitude) * metresPerDegreeLongitude
            return north * north + east * east <= limitSquared
        }
    }
}
