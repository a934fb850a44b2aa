import Foundation
import Planner
import WireProtocol

/// `location.set`, `location.show`.
struct LocationMethods: Sendable {
    let location: LocationState
    let regions: RegionRegistry
    let clock: any WallClock
    let events: EventHub
    let geofences: GeofenceMonitor

    func register(in table: inout MethodTable) {
        table.register(Endpoints.locationSet) { params, _ in
            let coordinate = Coordinate(latitude: params.lat, longitude: params.lon)
            let fix = try location.set(coordinate, accuracy: params.accuracyM, at: clock.now())
            events.publish(.locationChanged(lat: params.lat, lon: params.lon, source: fix.source.rawValue))
            if let usable = fix.geofenceFix { try await geofences.observe(usable) }
            return try document()
        }
        table.register(Endpoints.locationShow) { _, _ in try document() }
    }

    func document() throws -> LocationDocument {
        guard let fix = location.current else { throw DaemonError.noLocation }
        let zone = regions.timeZone(for: fix.coordinate)
        return LocationDocument(lat: fix.coordinate.latitude, lon: fix.coordinate.longitude,
                                accuracyM: fix.accuracy, at: WireTime.string(from: fix.at, timeZone: zone),
                                source: fix.source.rawValue)
    }
}
