import Foundation
import Planner
import Synchronization

/// The latest location fix, which `@here` and current-location nodes resolve to. It stays in
/// the daemon's memory: location never leaves the machine and is not written to disk.
public final class LocationState: Sendable {
    public struct Fix: Hashable, Sendable {
        public var coordinate: Coordinate
        public var accuracy: Double?
        public var at: Date
    }

    private let fix = Mutex<Fix?>(nil)

    public init() {}

    public var current: Fix? { fix.withLock { $0 } }

    /// Accepts a fix unless it is older than the one held.
    /// - throws: `DaemonError.invalidParams` for an invalid coordinate or accuracy.
    public func set(_ coordinate: Coordinate, accuracy: Double?, at date: Date) throws {
        guard coordinate.isValid else {
            throw DaemonError.invalidParams("invalid coordinate \(coordinate.latitude),\(coordinate.longitude): latitude must be within ±90 and longitude within ±180")
        }
        if let accuracy, !(accuracy.isFinite && accuracy >= 0) {
            throw DaemonError.invalidParams("accuracy must be a non-negative number of metres, got \(accuracy)")
        }
        fix.withLock { current in
            if let existing = current, existing.at > date { return }
            current = Fix(coordinate: coordinate, accuracy: accuracy, at: date)
        }
    }
}
