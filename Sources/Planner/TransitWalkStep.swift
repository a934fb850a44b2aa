import Foundation

/// A walk inside a transit leg — to the first stop, between two rides, or from the last stop —
/// kept on the leg so storage, the wire and `umctl plan show` can tell the person where to walk
/// and for how long, not only which vehicles to take.
public struct TransitWalkStep: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// From the leg's start to the first boarding stop.
        case access
        /// Between two rides (zero metres when the change is at one stop).
        case transfer
        /// From the last alighting stop to the leg's end.
        case egress
    }

    public var kind: Kind
    public var fromName: String
    public var from: Coordinate
    public var toName: String
    public var to: Coordinate
    /// When the walk starts.
    public var start: Date
    /// Seconds at the user's pace (for a change at one stop: its minimum change time).
    public var duration: TimeInterval
    /// Metres as the engine measured them.
    public var distance: Double

    public init(kind: Kind, fromName: String, from: Coordinate, toName: String, to: Coordinate,
                start: Date, duration: TimeInterval, distance: Double) {
        self.kind = kind
        self.fromName = fromName
        self.from = from
        self.toName = toName
        self.to = to
        self.start = start
        self.duration = duration
        self.distance = distance
    }
}
