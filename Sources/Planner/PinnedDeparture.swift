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

    /// The time the pin is shown to leave: a pinned ride's vehicle departure (its first
    /// boarding), never the start of a walk before it. `departure` is when the segment leaves the
    /// node, the walk to the stop first: joined with a long walk (`RouteLeg.joiningAccessWalk`,
    /// `plan mode … transit` on the walk to the pinned ride's stop), bus 6 pinned at 08:14 read
    /// "pinned to leave 07:01" in an 08:00 plan (trial 53). A pinned walk or drive: its time.
    public var shownDeparture: Date { leg?.rides.first?.boarding.time ?? departure }
}

/// A newer answer for a pinned segment that the planner did not apply on its own:
/// "selected 22 min → latest 25 min". The user accepts or dismisses it. When the pinned ride can
/// no longer be caught and nothing later (arrive-by: earlier) can either, the answer says so
/// instead, and only dismissing it is possible (docs/planner.md "The proposal rule").
public struct PendingSegmentUpdate: Hashable, Sendable, Codable {
    /// What the planner answers for the pinned segment: one of the two, never both or neither.
    public enum Proposal: Hashable, Sendable, Codable {
        /// The leg proposed instead of the selected one (accept or dismiss).
        case ride(RouteLeg)
        /// No ride of any line can be caught instead (dismiss only).
        case nothingCatchable(NoCatchableRide)
    }

    public var segment: SegmentKey
    public var selected: RouteLeg
    public var proposal: Proposal

    public init(segment: SegmentKey, selected: RouteLeg, proposal: Proposal) {
        self.segment = segment
        self.selected = selected
        self.proposal = proposal
    }

    /// The proposed leg; nil when nothing can be caught.
    public var latest: RouteLeg? {
        if case .ride(let leg) = proposal { return leg }
        return nil
    }
}
