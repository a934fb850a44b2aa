/// Identifies a segment by the place IDs of its two ends and, for a plan that goes between the
/// same two places more than once (two bus rides between the same stops), which of those
/// segments it is in plan order (`occurrence`, 0 = the first). Inserting or removing nodes
/// elsewhere shifts indices but not IDs; the edits that change which occurrence a segment is
/// renumber the keys of its decisions (`RoutePlan.replaceStructure(…origins:)`).
public struct SegmentKey: Hashable, Sendable, Codable, CustomStringConvertible {
    public var fromID: String
    public var toID: String
    /// How many segments of the plan before this one join the same two places the same way.
    public var occurrence: Int

    public init(fromID: String, toID: String, occurrence: Int = 0) {
        self.fromID = fromID
        self.toID = toID
        self.occurrence = occurrence
    }

    /// A key encoded before occurrences were counted is the first between its places.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fromID = try container.decode(String.self, forKey: .fromID)
        toID = try container.decode(String.self, forKey: .toID)
        occurrence = try container.decodeIfPresent(Int.self, forKey: .occurrence) ?? 0
    }

    /// Whether `other` joins the same two places the same way (whichever occurrence).
    func joinsSamePlaces(as other: SegmentKey) -> Bool { fromID == other.fromID && toID == other.toID }

    public var description: String {
        occurrence == 0 ? "\(fromID) → \(toID)" : "\(fromID) → \(toID) (#\(occurrence + 1))"
    }
}
