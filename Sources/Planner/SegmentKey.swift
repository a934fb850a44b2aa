/// Identifies a segment by the place IDs of its two ends, so that it survives
/// inserting or removing nodes elsewhere (indices shift; IDs do not).
public struct SegmentKey: Hashable, Sendable, Codable, CustomStringConvertible {
    public var fromID: String
    public var toID: String

    public init(fromID: String, toID: String) {
        self.fromID = fromID
        self.toID = toID
    }

    /// The same segment travelled the other way (used when origin and destination swap).
    public var reversed: SegmentKey { SegmentKey(fromID: toID, toID: fromID) }

    public var description: String { "\(fromID) → \(toID)" }
}
