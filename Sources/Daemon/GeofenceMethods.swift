import Foundation
import Planner
import Store
import WireProtocol

extension DaemonServices {
    /// `place.fence`, `history.visits`.
    func geofenceHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .placeFence: { [self] context in
                let params = try context.params(Params.PlaceFence.self)
                if params.radiusM != nil, !params.on {
                    throw DaemonError.invalidParams("radius_m goes with on: true (turning a fence off keeps its radius)")
                }
                try setFence(params.name, on: params.on, radiusM: params.radiusM)
                return try fenceDocument(params.name)
            },
            .historyVisits: { [self] context in
                let limit = try context.params(Params.HistoryList.self).limit ?? Store.historyLimit
                guard (1...Store.historyLimit).contains(limit) else {
                    throw DaemonError.invalidParams("limit must be 1 to \(Store.historyLimit), got \(limit)")
                }
                return .object(["entries": .array(try store.visitHistory(limit: limit).map { visit in
                    let zone = regions.timeZone(for: visit.fix.coordinate)
                    return .object(["place": .string(visit.placeName), "event": .string(visit.event.rawValue),
                                    "time": .string(WireTime.string(from: visit.fix.timestamp, timeZone: zone)),
                                    "fix": GeofenceMonitor.document(visit.fix, timeZone: zone),
                                    "at": .string(WireTime.string(from: visit.date, timeZone: TimeZone.current))])
                })])
            },
        ]
    }

    /// Turns the fence of saved place `name` on or off, naming the place when it does not exist.
    func setFence(_ name: String, on: Bool, radiusM: Double?) throws {
        do {
            try store.setFence(ofPlace: name, on: on, radiusMetres: radiusM)
        } catch StoreError.notFound {
            throw DaemonError.notFound("no saved place named \"\(name)\"")
        } catch StoreError.invalidInput(let reason) {
            throw DaemonError.invalidParams(reason)
        }
    }

    /// `{"name", "geofence": {"on", "radius_m", "exit_radius_m", "state"}}` for a saved place.
    func fenceDocument(_ name: String) throws -> JSONValue {
        guard let fence = try store.fences().first(where: { $0.name == name }) else {
            return .object(["name": .string(name), "geofence": .null])
        }
        let state = fence.isOn ? (geofences.states()[name] ?? .unknown).rawValue : "off"
        return .object(["name": .string(name), "geofence": .object([
            "on": .bool(fence.isOn), "radius_m": .number(fence.radiusMetres),
            "exit_radius_m": .number(GeofenceRule.outsideMetres(forInside: fence.radiusMetres)), "state": .string(state),
        ])])
    }

    /// `status.location`.
    func locationStatus() -> LocationStatusDocument {
        let counts = location.counts
        let connection = gpsd?.status
        return LocationStatusDocument(
            source: gpsd == nil ? LocationState.Source.manual.rawValue : LocationState.Source.gpsd.rawValue,
            gpsd: gpsd?.address.description, connected: connection?.connected, connections: connection?.connections,
            lastError: connection?.lastError, currentFrom: location.current?.source.rawValue,
            accepted: Dictionary(uniqueKeysWithValues: counts.accepted.map { ($0.key.rawValue, $0.value) }),
            ignored: Dictionary(uniqueKeysWithValues: counts.ignored.map { ($0.key.rawValue, $0.value) }),
            fences: geofences.states().mapValues(\.rawValue))
    }

    /// A position from gpsd: taken if `FixFilter` lets it through (then the fences see it),
    /// else its reason is counted and logged at debug.
    static func take(_ candidate: FixFilter.Candidate, location: LocationState, geofences: GeofenceMonitor,
                     logger: DaemonLogger) {
        switch location.offer(candidate, source: .gpsd) {
        case .failure(let reason):
            logger.debug("gpsd fix ignored", ["reason": reason.rawValue,
                                              "accuracy_m": candidate.accuracy.map { String($0) } ?? "none"])
        case .success(let fix):
            guard let usable = fix.geofenceFix else { return }
            do {
                try geofences.observe(usable)
            } catch {
                logger.warning("cannot apply a fix to the geofences", ["error": "\(error)"])
            }
        }
    }
}
