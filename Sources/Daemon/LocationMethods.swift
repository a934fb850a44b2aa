import Foundation
import Planner
import WireProtocol

extension DaemonServices {
    /// `location.set`, `location.show`.
    func locationHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .locationSet: { [self] context in
                let params = try context.params(Params.LocationSet.self)
                let coordinate = Coordinate(latitude: params.lat, longitude: params.lon)
                if let fix = try location.set(coordinate, accuracy: params.accuracyM, at: clock.now()) {
                    events.publish("location_changed", ["lat": .number(params.lat), "lon": .number(params.lon),
                                                        "source": .string(fix.source.rawValue)])
                    if let usable = fix.geofenceFix { try geofences.observe(usable) }
                }
                return try locationDocument()
            },
            .locationShow: { [self] _ in try locationDocument() },
        ]
    }

    func locationDocument() throws -> JSONValue {
        guard let fix = location.current else { throw DaemonError.noLocation }
        let zone = regions.timeZone(for: fix.coordinate)
        return try JSONValue(encoding: LocationDocument(lat: fix.coordinate.latitude, lon: fix.coordinate.longitude,
                                                        accuracyM: fix.accuracy, at: WireTime.string(from: fix.at, timeZone: zone),
                                                        source: fix.source.rawValue))
    }
}
