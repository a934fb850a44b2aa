import Foundation
import Planner
import Store

/// Saved places' fences and the visits they recorded, as `place.fence`, `place.save`,
/// `place.list`, `history.visits` and `status` read and change them; the store's errors are
/// said as the user's (the place named).
struct GeofenceService: Sendable {
    let store: Store
    let geofences: GeofenceMonitor

    /// Every saved place's fence (on or off) with what the monitor makes of it now.
    struct Fences: Sendable {
        var fences: [PlaceFence]
        /// Place name → inside, outside or unknown (fences that are on).
        var states: [String: GeofenceState]
    }

    /// Turns the fence of saved place `name` on or off, naming the place when it does not exist.
    /// - throws: `DaemonError.notFound` for no such place, `invalidParams` for a radius out of
    ///   range or given to turn a fence off.
    func setFence(_ name: String, on: Bool, radiusM: Double?) async throws {
        if radiusM != nil, !on {
            throw DaemonError.invalidParams("radius_m goes with on: true (turning a fence off keeps its radius)")
        }
        do {
            try await store.write(Geofences.set(ofPlace: name, on: on, radiusMetres: radiusM))
        } catch StoreError.notFound {
            throw DaemonError.notFound("no saved place named \"\(name)\"")
        } catch StoreError.invalidInput(let reason) {
            throw DaemonError.invalidParams(reason)
        }
    }

    func fences() async throws -> Fences {
        let fences = try await store.read(Geofences.all())
        return Fences(fences: fences, states: geofences.states(of: fences))
    }

    /// The fences' states now, through the store's at-once reader: for `status` on a plain thread.
    func statesAtOnce() throws -> [String: GeofenceState] {
        geofences.states(of: try store.readAtOnce(Geofences.all()))
    }

    /// The newest visits first, at most `limit` (default and most `Store.historyLimit`).
    /// - throws: `DaemonError.invalidParams` for a limit out of range.
    func visits(limit: Int?) async throws -> [VisitEntry] {
        try await store.read(Geofences.visits(limit: try HistoryService.checkedLimit(limit)))
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
}
