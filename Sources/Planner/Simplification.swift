import Foundation

/// Ramer–Douglas–Peucker simplification of a polyline, with the tolerance in metres (not degrees,
/// which would mean different things at different latitudes). Iterative with an explicit stack,
/// so a route of any length cannot overflow the call stack. The first and last points are kept;
/// a kept point is one farther than `toleranceMetres` from the simplified line around it.
///
/// ```swift
/// let drawn = simplify(leg.geometry, toleranceMetres: 5)
/// ```
/// A negative or non-finite tolerance, or fewer than three points, returns the input unchanged.
public func simplify(_ points: [Coordinate], toleranceMetres: Double) -> [Coordinate] {
    guard points.count > 2, toleranceMetres.isFinite, toleranceMetres >= 0 else { return points }
    var keep = [Bool](repeating: false, count: points.count)
    keep[0] = true
    keep[points.count - 1] = true
    var ranges = [(first: 0, last: points.count - 1)]
    while let (first, last) = ranges.popLast() {
        guard last - first > 1 else { continue }
        var farthest = first, farthestDistance = -1.0
        for index in (first + 1)..<last {
            let distance = segmentDistanceMetres(points[index], points[first], points[last])
            if distance > farthestDistance {
                farthest = index
                farthestDistance = distance
            }
        }
        if farthestDistance > toleranceMetres {
            keep[farthest] = true
            ranges.append((first, farthest))
            ranges.append((farthest, last))
        }
    }
    return points.indices.filter { keep[$0] }.map { points[$0] }
}

/// Distance in metres from `point` to the segment `a`–`b`, in a local equirectangular projection
/// centred on `a` (accurate at polyline scales; longitudes are unwrapped across the antimeridian).
func segmentDistanceMetres(_ point: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
    let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
    let cosLatitude = cos(a.latitude * .pi / 180)
    func local(_ c: Coordinate) -> (x: Double, y: Double) {
        var dLon = c.longitude - a.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metresPerDegree * cosLatitude, (c.latitude - a.latitude) * metresPerDegree)
    }
    let p = local(point), end = local(b)
    let lengthSquared = end.x * end.x + end.y * end.y
    guard lengthSquared > 0 else { return (p.x * p.x + p.y * p.y).squareRoot() }
    let t = max(0, min(1, (p.x * end.x + p.y * end.y) / lengthSquared))
    let dx = p.x - t * end.x, dy = p.y - t * end.y
    return (dx * dx + dy * dy).squareRoot()
}
