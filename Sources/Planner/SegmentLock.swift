import Foundation

/// What the user decided for a segment; automation (presets, refinement) never overrides it.
public struct SegmentLock: Hashable, Sendable, Codable {
    public var mode: TravelMode
    /// The departure the user chose, if any.
    public var departure: Date?
    /// The segment's duration when the user decided.
    public var duration: TimeInterval?
    /// The lines of the alternative the user chose (`plan choose`, `plan pin --line`); empty when
    /// the user did not choose among alternatives.
    public var chosenLines: [String]
    /// Stops the user removed from this segment ("don't go via there"): its transit queries
    /// avoid them (`LegQuery.avoiding`).
    public var avoidedStops: [Coordinate]

    public init(mode: TravelMode, departure: Date? = nil, duration: TimeInterval? = nil, chosenLines: [String] = [],
                avoidedStops: [Coordinate] = []) {
        self.mode = mode
        self.departure = departure
        self.duration = duration
        self.chosenLines = chosenLines
        self.avoidedStops = avoidedStops
    }
}
