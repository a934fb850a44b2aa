import Foundation

/// A departure the user fixed on one segment ("this train").
/// Its duration is the fingerprint used to re-find the same departure on recompute.
public struct PinnedDeparture: Hashable, Sendable, Codable {
    public var segment: SegmentKey
    public var departure: Date
    public var duration: TimeInterval
    /// Trip identifiers of the pinned leg's rides, when the engine knows them (better than the duration).
    public var tripIDs: [String]
    /// The leg the user chose, kept so that a recompute that cannot re-find the same departure
    /// shows the user's choice (with a `PendingSegmentUpdate`) instead of silently replacing it.
    public var leg: RouteLeg?

    public init(segment: SegmentKey, departure: Date, duration: TimeInterval, tripIDs: [String] = [],
                leg: RouteLeg? = nil) {
        self.segment = segment
        self.departure = departure
        self.duration = duration
        self.tripIDs = tripIDs
        self.leg = leg
    }
}

/// A newer answer for a pinned segment that the planner did not apply on its own:
/// "selected 22 min → latest 25 min". The user accepts or dismisses it.
public struct PendingSegmentUpdate: Hashable, Sendable, Codable {
    public var segment: SegmentKey
    public var selected: RouteLeg
    public var latest: RouteLeg

    public init(segment: SegmentKey, selected: RouteLeg, latest: RouteLeg) {
        self.segment = segment
        self.selected = selected
        self.latest = latest
    }
}
