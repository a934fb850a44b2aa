import Foundation
import Planner

/// Why a fix from a location source was not taken. The raw values appear in `status`
/// (`location.ignored`) and in the debug log.
public enum FixRejection: String, Error, Sendable, CaseIterable, Codable {
    /// The receiver has no 2D fix (gpsd mode 0 or 1).
    case noFix = "no_2d_fix"
    /// The source gave no horizontal error estimate, so nothing says how far off it may be.
    case noAccuracy = "no_accuracy"
    /// The error estimate is over `FixFilter.worstAccuracyMetres`.
    case inaccurate = "accuracy_over_30m"
    /// Older than the latest accepted fix (a replayed or reordered report).
    case stale = "older_than_latest"
    /// Stamped more than `FixFilter.futureToleranceSeconds` after the daemon's clock (a receiver
    /// with a wrong date); taken, it would make every real fix look older than it.
    case future = "in_the_future"
    /// No time, or a position outside ±90/±180.
    case invalid = "invalid"
}

/// The rule a source's fix must pass before `@here`, current-location nodes and geofences use it.
public enum FixFilter {
    /// The geofence accuracy gate; a worse fix would move `@here` by more than a street.
    public static let worstAccuracyMetres = 30.0
    /// How far ahead of the daemon's clock a fix's time may be (clocks differ a little).
    public static let futureToleranceSeconds = 60.0

    /// A report as a source gave it, before the rule.
    public struct Candidate: Hashable, Sendable {
        public var latitude: Double?
        public var longitude: Double?
        public var accuracy: Double?
        public var time: Date?
        /// At least a 2D fix (gpsd mode ≥ 2).
        public var hasFix: Bool

        public init(latitude: Double?, longitude: Double?, accuracy: Double?, time: Date?, hasFix: Bool) {
            self.latitude = latitude
            self.longitude = longitude
            self.accuracy = accuracy
            self.time = time
            self.hasFix = hasFix
        }
    }

    /// The fix `candidate` gives when it may be taken after a latest accepted fix at `latest`,
    /// with the daemon's clock at `now`, else why not.
    public static func check(_ candidate: Candidate, latest: Date?, now: Date) -> Result<LocationFix, FixRejection> {
        guard candidate.hasFix else { return .failure(.noFix) }
        guard let latitude = candidate.latitude, let longitude = candidate.longitude, let time = candidate.time else {
            return .failure(.invalid)
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return .failure(.invalid) }
        guard let accuracy = candidate.accuracy, accuracy.isFinite, accuracy >= 0 else { return .failure(.noAccuracy) }
        guard accuracy <= worstAccuracyMetres else { return .failure(.inaccurate) }
        guard time.timeIntervalSince(now) <= futureToleranceSeconds else { return .failure(.future) }
        if let latest, time < latest { return .failure(.stale) }
        return .success(LocationFix(coordinate: coordinate, horizontalAccuracy: accuracy, timestamp: time))
    }
}
