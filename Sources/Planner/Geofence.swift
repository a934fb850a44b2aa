import Foundation

/// Where the user is relative to a place's fence. The first state is `unknown`, never
/// "outside" by default: no trustworthy fix is not the same as being away.
public enum GeofenceState: String, Sendable, Codable, CaseIterable {
    case unknown, inside, outside
}

/// The fence rule from DESIGN.md as a pure function: inside at ≤ 80 m, outside at ≥ 120 m,
/// in between the previous state holds (hysteresis against "enter, leave, enter" at the border).
public enum GeofenceRule {
    public static let insideMetres = 80.0
    public static let outsideMetres = 120.0
    /// Fixes whose accuracy is outside this range change nothing.
    public static let accuracyRange = 0.0...30.0

    /// The next state after a fix at `distance` metres from the centre with `accuracy` metres.
    /// An unusable fix (non-finite, negative, or too inaccurate) returns `previous` unchanged.
    /// `inside`/`outside` give a fence of another size (a saved place's own radius).
    public static func nextState(previous: GeofenceState, distance: Double, accuracy: Double,
                                 inside: Double = insideMetres, outside: Double = outsideMetres) -> GeofenceState {
        guard distance.isFinite, distance >= 0, accuracy.isFinite, accuracyRange.contains(accuracy) else {
            return previous
        }
        if distance <= inside { return .inside }
        if distance >= outside { return .outside }
        return previous
    }

    /// The exit radius for an enter radius, in the write-up's proportion (80 m in, 120 m out).
    public static func outsideMetres(forInside inside: Double) -> Double { inside * outsideMetres / insideMetres }
}

/// A change of fence state worth telling the user about.
public struct GeofenceTransition: Hashable, Sendable, Codable {
    public var from: GeofenceState
    public var to: GeofenceState
    public var at: Date

    public init(from: GeofenceState, to: GeofenceState, at: Date) {
        self.from = from
        self.to = to
        self.at = at
    }
}

/// Follows one fence through a stream of fixes. A value type: `tracking` returns the next tracker
/// and the transition, if any. Invalid fixes and fixes older than the last accepted one change
/// nothing; reaching the same state again is not a new transition.
public struct GeofenceTracker: Hashable, Sendable, Codable {
    public var center: Coordinate
    /// Enter within this many metres of the centre; leave beyond `outsideMetres`.
    public var insideMetres: Double
    public var outsideMetres: Double
    public private(set) var state: GeofenceState
    /// Timestamp of the last accepted fix; older fixes are ignored.
    public private(set) var lastFixTime: Date?

    public init(center: Coordinate, insideMetres: Double = GeofenceRule.insideMetres,
                outsideMetres: Double = GeofenceRule.outsideMetres, state: GeofenceState = .unknown, lastFixTime: Date? = nil) {
        self.center = center
        self.insideMetres = insideMetres
        self.outsideMetres = outsideMetres
        self.state = state
        self.lastFixTime = lastFixTime
    }

    /// Applies `fix`; returns the updated tracker and the transition it caused, if any.
    public func tracking(_ fix: LocationFix) -> (tracker: GeofenceTracker, transition: GeofenceTransition?) {
        guard fix.isUsableForGeofence else { return (self, nil) }
        if let lastFixTime, fix.timestamp < lastFixTime { return (self, nil) }
        let next = GeofenceRule.nextState(previous: state, distance: center.distance(to: fix.coordinate),
                                          accuracy: fix.horizontalAccuracy, inside: insideMetres, outside: outsideMetres)
        var updated = self
        updated.lastFixTime = fix.timestamp
        updated.state = next
        return (updated, next == state ? nil : GeofenceTransition(from: state, to: next, at: fix.timestamp))
    }
}
