import Foundation
import Planner

/// Distances to a line and points along it, on a local flat projection (exact enough within
/// a street's length).
enum LineMeasure {
    /// Metres from `point` to the nearest point of `line` (to the point itself for a line of one).
    static func distance(from point: Coordinate, to line: [Coordinate]) -> Double {
        guard let first = line.first else { return .infinity }
        guard line.count >= 2 else { return point.distance(to: first) }
        let scale = cos(point.latitude * .pi / 180)
        func flat(_ c: Coordinate) -> (x: Double, y: Double) {
            ((c.longitude - point.longitude) * scale * 111_195, (c.latitude - point.latitude) * 111_195)
        }
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let p = flat(a), q = flat(b)
            let dx = q.x - p.x, dy = q.y - p.y
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared == 0 ? 0 : max(0, min(1, -(p.x * dx + p.y * dy) / lengthSquared))
            let x = p.x + t * dx, y = p.y + t * dy
            best = min(best, (x * x + y * y).squareRoot())
        }
        return best
    }

    /// The point `fraction` (0…1) of the way along `line`, by length.
    static func point(atFraction fraction: Double, of line: [Coordinate]) -> Coordinate? {
        guard let first = line.first else { return nil }
        let lengths = zip(line, line.dropFirst()).map { $0.distance(to: $1) }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return first }
        var remaining = max(0, min(1, fraction)) * total
        for (index, length) in lengths.enumerated() {
            if remaining <= length, length > 0 {
                let t = remaining / length, a = line[index], b = line[index + 1]
                return Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude),
                                  longitude: a.longitude + t * (b.longitude - a.longitude))
            }
            remaining -= length
        }
        return line.last
    }
}
