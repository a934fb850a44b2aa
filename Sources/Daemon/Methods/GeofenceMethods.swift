import Foundation
import Planner
import Store
import WireProtocol

/// `place.fence`, `history.visits`; and what `status` shows of the location source, the fences
/// and the background refresh.
struct GeofenceMethods: Sendable {
    let store: Store
    let regions: RegionRegistry
    let geofences: GeofenceMonitor

    func register(in table: inout MethodTable) {
        table.register(Endpoints.placeFence) { params, _ in
            if params.radiusM != nil, !params.on {
                throw DaemonError.invalidParams("radius_m goes with on: true (turning a fence off keeps its radius)")
            }
            try await setFence(params.name, on: params.on, radiusM: params.radiusM)
            return try await document(params.name)
        }
        table.register(Endpoints.historyVisits) { params, _ in
            let limit = params.limit ?? Store.historyLimit
            guard (1...Store.historyLimit).contains(limit) else {
                throw DaemonError.invalidParams("limit must be 1 to \(Store.historyLimit), got \(limit)")
            }
            return VisitHistoryDocument(entries: try await store.read(Geofences.visits(limit: limit)).map { visit in
                let zone = regions.timeZone(for: visit.fix.coordinate)
                return VisitDocument(place: visit.placeName, event: visit.event.rawValue,
                                     time: WireTime.string(from: visit.fix.timestamp, timeZone: zone),
                                     fix: GeofenceMonitor.document(visit.fix, timeZone: zone),
                                     at: WireTime.string(from: visit.date, timeZone: TimeZone.current))
            })
        }
    }

    /// Turns the fence of saved place `name` on or off, naming the place when it does not exist.
    func setFence(_ name: String, on: Bool, radiusM: Double?) async throws {
        do {
            try await store.write(Geofences.set(ofPlace: name, on: on, radiusMetres: radiusM))
        } catch StoreError.notFound {
            throw DaemonError.notFound("no saved place named \"\(name)\"")
        } catch StoreError.invalidInput(let reason) {
            throw DaemonError.invalidParams(reason)
        }
    }

    /// A saved place's fence as `place.fence` answers it.
    func document(_ name: String) async throws -> PlaceFenceDocument {
        PlaceFenceDocument(name: name, geofence: try await documents()[name])
    }

    /// Every saved place's fence (on or off) by place name, as `place.fence` and `place.list` show it.
    func documents() async throws -> [String: FenceDocument] {
        let fences = try await store.read(Geofences.all())
        let states = geofences.states(of: fences)
        return Dictionary(fences.map { fence in
            (fence.name, FenceDocument(on: fence.isOn, radiusM: fence.radiusMetres,
                                       exitRadiusM: GeofenceRule.outsideMetres(forInside: fence.radiusMetres),
                                       state: fence.isOn ? (states[fence.name] ?? .unknown).rawValue : "off"))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// A position from gpsd: taken if `FixFilter` lets it through (then the fences see it),
    /// else its reason is counted and logged at debug.
    static func take(_ candidate: FixFilter.Candidate, location: LocationState, geofences: GeofenceMonitor,
                     now: Date, logger: DaemonLogger) {
        switch location.offer(candidate, source: .gpsd, now: now) {
        case .failure(let reason):
            logger.debug("gpsd fix ignored", ["reason": reason.rawValue,
                                              "accuracy_m": candidate.accuracy.map { String($0) } ?? "none"])
        case .success(let fix):
            guard let usable = fix.geofenceFix else { return }
            do {
                try geofences.observeWaiting(usable) // on gpsd's thread
            } catch {
                logger.warning("cannot apply a fix to the geofences", ["error": "\(error)"])
            }
        }
    }

    /// The parts of `status` about the background service.
    struct Status: Sendable {
        let store: Store
        let location: LocationState
        let geofences: GeofenceMonitor
        let gpsd: GpsdLocationSource?
        let refresher: BackgroundRefresher

        /// The location part of `status`, with `fences` as the store has them.
        func document(fences: [PlaceFence]) -> LocationStatusDocument {
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
                fences: geofences.states(of: fences).map { FenceStateDocument(place: $0.key, state: $0.value.rawValue) }
                    .sorted { $0.place < $1.place })
        }
    }
}
