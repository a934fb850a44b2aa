import Foundation
import Planner
import Synchronization

/// The latest location fix, which `@here` and current-location nodes resolve to. It stays in
/// the daemon's memory: location never leaves the machine and is not written to disk.
public final class LocationState: Sendable {
    /// Where a fix came from.
    public enum Source: String, Sendable, Hashable {
        /// `location.set` (umctl location set).
        case manual
        /// The configured gpsd.
        case gpsd
    }

    public struct Fix: Hashable, Sendable {
        public var coordinate: Coordinate
        public var accuracy: Double?
        public var at: Date
        public var source: Source = .manual

        /// The fix as the geofence rule reads it; nil without an accuracy (nothing to gate on).
        public var geofenceFix: LocationFix? {
            accuracy.map { LocationFix(coordinate: coordinate, horizontalAccuracy: $0, timestamp: at) }
        }
    }

    private struct State {
        var fix: Fix?
        var accepted: [Source: Int] = [:]
        var ignored: [FixRejection: Int] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public var current: Fix? { state.withLock { $0.fix } }

    /// Takes a fix given by hand: it always replaces the one held, whatever that one's time (a
    /// receiver's wrong clock must not make the user's own word lose).
    /// - throws: `DaemonError.invalidParams` for an invalid coordinate or accuracy.
    @discardableResult
    public func set(_ coordinate: Coordinate, accuracy: Double?, at date: Date, source: Source = .manual) throws -> Fix {
        guard coordinate.isValid else {
            throw DaemonError.invalidParams("invalid coordinate \(coordinate.latitude),\(coordinate.longitude): latitude must be within ±90 and longitude within ±180")
        }
        if let accuracy, !(accuracy.isFinite && accuracy >= 0) {
            throw DaemonError.invalidParams("accuracy must be a non-negative number of metres, got \(accuracy)")
        }
        return state.withLock { state in
            let fix = Fix(coordinate: coordinate, accuracy: accuracy, at: date, source: source)
            state.fix = fix
            state.accepted[source, default: 0] += 1
            return fix
        }
    }

    /// Offers a fix from a source that may send bad ones: it is taken only if `FixFilter` lets
    /// it through against the fix held now and the daemon's clock at `now`, else the reason is
    /// counted.
    public func offer(_ candidate: FixFilter.Candidate, source: Source, now: Date) -> Result<Fix, FixRejection> {
        state.withLock { state in
            switch FixFilter.check(candidate, latest: state.fix?.at, now: now) {
            case .failure(let reason):
                state.ignored[reason, default: 0] += 1
                return .failure(reason)
            case .success(let checked):
                let fix = Fix(coordinate: checked.coordinate, accuracy: checked.horizontalAccuracy, at: checked.timestamp,
                              source: source)
                state.fix = fix
                state.accepted[source, default: 0] += 1
                return .success(fix)
            }
        }
    }

    /// Fixes taken per source, and fixes ignored per reason, since the daemon started.
    public var counts: (accepted: [Source: Int], ignored: [FixRejection: Int]) {
        state.withLock { ($0.accepted, $0.ignored) }
    }
}
