import Foundation

/// A point on Earth in degrees (WGS 84).
///
/// The domain computes its own distances so that it knows no map framework:
/// ```swift
/// let a = try Coordinate(validatingLatitude: 61.4981, longitude: 23.7610)
/// a.distance(to: b) // metres, haversine
/// ```
public struct Coordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    /// Mean Earth radius used for every distance in the project.
    public static let earthRadiusMetres = 6_371_008.8

    /// Creates a coordinate without checking it; use `isValid` or the validating initialiser on input.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate from user input.
    /// - throws: `PlannerError.invalidCoordinate` when a value is not finite or out of range.
    public init(validatingLatitude latitude: Double, longitude: Double) throws {
        self.init(latitude: latitude, longitude: longitude)
        guard isValid else { throw PlannerError.invalidCoordinate(latitude: latitude, longitude: longitude) }
    }

    /// Finite, |lat| ≤ 90 and |lon| ≤ 180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Great-circle distance in metres (haversine). Correct across the antimeridian
    /// because only the sine of the half longitude difference is used.
    public func distance(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (other.longitude - longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * Coordinate.earthRadiusMetres * asin(min(1, sqrt(h)))
    }

    /// The point halfway along the great circle to `other` (correct across the antimeridian).
    public func midpoint(to other: Coordinate) -> Coordinate {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let λ1 = longitude * .pi / 180
        let Δλ = (other.longitude - longitude) * .pi / 180
        let bx = cos(φ2) * cos(Δλ), by = cos(φ2) * sin(Δλ)
        let φ = atan2(sin(φ1) + sin(φ2), sqrt((cos(φ1) + bx) * (cos(φ1) + bx) + by * by))
        var λ = λ1 + atan2(by, cos(φ1) + bx)
        λ = (λ + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi
        return Coordinate(latitude: φ * 180 / .pi, longitude: λ * 180 / .pi)
    }
}
