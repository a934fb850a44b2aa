import Planner

/// A saved place's geofence as stored: where it is, how big, and whether it is watched.
public struct PlaceFence: Sendable, Hashable {
    public var name: String
    public var center: Coordinate
    /// Enter radius in metres; the exit radius follows from it (`GeofenceRule.outsideMetres(forInside:)`).
    public var radiusMetres: Double
    public var isOn: Bool

    public init(name: String, center: Coordinate, radiusMetres: Double, isOn: Bool) {
        self.name = name
        self.center = center
        self.radiusMetres = radiusMetres
        self.isOn = isOn
    }
}
