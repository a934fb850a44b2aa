import Foundation

/// One position report from a client or a location daemon.
public struct LocationFix: Hashable, Sendable, Codable {
    public var coordinate: Coordinate
    /// Radius of uncertainty in metres, as reported by the source.
    public var horizontalAccuracy: Double
    public var timestamp: Date

    public init(coordinate: Coordinate, horizontalAccuracy: Double, timestamp: Date) {
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        self.timestamp = timestamp
    }

    /// A valid coordinate and an accuracy within `GeofenceRule.accuracyRange`.
    public var isUsableForGeofence: Bool {
        coordinate.isValid && horizontalAccuracy.isFinite && GeofenceRule.accuracyRange.contains(horizontalAccuracy)
    }
}
