import CRoutino
import Glibc

/// Waypoints already found, by profile and exact coordinate. Finding a waypoint (the nearest
/// usable road segment) costs more than routing a short walk, and the footpaths of a GTFS
/// import ask for each stop several times (a stop has several neighbours). Routino only reads
/// a waypoint when routing, so one can serve many routes. Failures are not kept.
final class WaypointCache {
    /// Entries kept; past it the cache starts again empty (a bound on memory, not an LRU).
    static let capacity = 20_000

    private struct Key: Hashable {
        var profile: OpaquePointer
        var latitude: Double
        var longitude: Double
    }

    private var waypoints: [Key: OpaquePointer] = [:]

    /// The waypoint nearest the point for the profile, or nil (see `routino_last_error`).
    func find(database: OpaquePointer, profile: OpaquePointer, latitude: Double, longitude: Double) -> OpaquePointer? {
        let key = Key(profile: profile, latitude: latitude, longitude: longitude)
        if let known = waypoints[key] { return known }
        guard let found = Routino_FindWaypoint(database, profile, latitude, longitude) else { return nil }
        if waypoints.count >= Self.capacity { removeAll() }
        waypoints[key] = found
        return found
    }

    func removeAll() {
        for waypoint in waypoints.values { free(UnsafeMutableRawPointer(waypoint)) }
        waypoints.removeAll()
    }

    deinit { removeAll() }
}
