import Foundation
import Planner
import Store
import WireProtocol

/// `place.fence`, `history.visits`; and what `status` shows of the location source, the fences
/// and the background refresh.
struct GeofenceMethods: Sendable {
    let fences: GeofenceService
    let regions: RegionRegistry

    func register(in table: inout MethodTable) {
        table.register(Endpoints.placeFence) { params, _ in
            try await fences.setFence(params.name, on: params.on, radiusM: params.radiusM)
            return PlaceFenceDocument(name: params.name, geofence: WireDocuments.fences(try await fences.fences())[params.name])
        }
        table.register(Endpoints.historyVisits) { params, _ in
            VisitHistoryDocument(entries: try await fences.visits(limit: params.limit).map { visit in
                let zone = regions.timeZone(for: visit.fix.coordinate)
                return VisitDocument(place: visit.placeName, event: visit.event.rawValue,
                                     time: WireTime.string(from: visit.fix.timestamp, timeZone: zone),
                                     fix: WireDocuments.fix(visit.fix, timeZone: zone),
                                     at: WireTime.string(from: visit.date, timeZone: TimeZone.current))
            })
        }
    }

    /// The parts of `status` about the background service.
    struct Status: Sendable {
        let location: LocationState
        let fences: GeofenceService
        let gpsd: GpsdLocationSource?
        let refresher: BackgroundRefresher

        /// The location part of `status`, with the fences' `states` as the store and the monitor have them.
        func document(states: [String: GeofenceState]) -> LocationStatusDocument {
            let counts = location.counts
            let connection = gpsd?.status
            func list<Key>(_ counts: [Key: Int], _ name: (Key) -> String) -> [CountDocument] {
                counts.map { CountDocument(name: name($0.key), count: $0.value) }.sorted { $0.name < $1.name }
            }
            return LocationStatusDocument(
                source: gpsd == nil ? LocationState.Source.manual.rawValue : LocationState.Source.gpsd.rawValue,
                gpsd: gpsd?.address.description, connected: connection?.connected, connections: connection?.connections,
                lastError: connection?.lastError, currentFrom: location.current?.source.rawValue,
                accepted: list(counts.accepted, \.rawValue), ignored: list(counts.ignored, \.rawValue),
                fences: states.map { FenceStateDocument(place: $0.key, state: $0.value.rawValue) }
                    .sorted { $0.place < $1.place })
        }
    }
}
