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

    public init(mode: TravelMode, departure: Date? = nil, duration: TimeInterval? = nil, chosenLines: [String] = []) {
        self.mode = mode
        self.departure = departure
        self.duration = duration
        self.chosenLines = chosenLines
    }
}
