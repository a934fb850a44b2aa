/// `plan.alternatives`: the options for one segment at its current time, numbered from 1 in
/// the order given (departure, then arrival); `plan.choose` takes one by its number.
public struct AlternativesDocument: Hashable, Sendable, Codable {
    public var id: Int64
    public var segment: Int
    public var mode: String
    /// When the options were asked for (the segment's current time).
    public var time: String?
    public var timeZone: String
    public var options: [LegDocument]

    public init(id: Int64, segment: Int, mode: String, time: String?, timeZone: String, options: [LegDocument]) {
        self.id = id
        self.segment = segment
        self.mode = mode
        self.time = time
        self.timeZone = timeZone
        self.options = options
    }
}
