/// `plan.alternatives`: the options for one segment at its current time, numbered from 1 in
/// the order given (departure, then arrival); `plan.choose` takes one by its number.
public struct AlternativesDocument: Hashable, Sendable, Codable {
    public var id: Int64
    public var segment: Int
    public var mode: WireMode
    /// When the options were asked for (the segment's current time).
    public var time: String?
    public var timeZone: String
    public var options: [LegDocument]
    /// The plan's day in `timeZone` ("2022-01-12": the date of its depart-at or arrive-by time,
    /// today for leave now), which an option on another day is told against (absent from older daemons).
    public var day: String?

    public init(id: Int64, segment: Int, mode: WireMode, time: String?, timeZone: String, options: [LegDocument], day: String? = nil) {
        self.id = id
        self.segment = segment
        self.mode = mode
        self.time = time
        self.timeZone = timeZone
        self.options = options
        self.day = day
    }
}
