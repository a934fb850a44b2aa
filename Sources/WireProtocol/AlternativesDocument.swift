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
    /// The options `plan.choose` refuses because taking one breaks a pin around the segment, or
    /// an arrive-by plan's time (absent from older daemons; empty when every option keeps them).
    public var pinConflicts: [PinConflictDocument]?

    public init(id: Int64, segment: Int, mode: WireMode, time: String?, timeZone: String, options: [LegDocument], day: String? = nil,
                pinConflicts: [PinConflictDocument]? = nil) {
        self.id = id
        self.segment = segment
        self.mode = mode
        self.time = time
        self.timeZone = timeZone
        self.options = options
        self.day = day
        self.pinConflicts = pinConflicts
    }
}

/// Why an option of `plan.alternatives` cannot be taken with the plan's pins, or its "arrive by"
/// time (`plan.choose` refuses it with `conflict`): `kind` "arrives_too_late", it arrives at `time`
/// and the traveller can leave the pinned segment's start only at `ready`, after it leaves on its
/// pin (at `pinned_walk_leaves` when the walk to a pinned ride's stop leaves before the ride, else
/// at `pinned`); "leaves_too_early", it leaves at `time`, before `ready`, the earliest the traveller
/// can be at its start coming from the pinned segment; "arrives_after_arrive_by", it arrives at
/// `time` and the traveller gets to the destination at `ready` at the earliest, after the plan's
/// `arrive_by` (no pinned segment).
public struct PinConflictDocument: Hashable, Sendable, Codable {
    /// The option, from 1.
    public var option: Int
    /// The pinned segment, from 1 (absent for "arrives_after_arrive_by").
    public var pinnedSegment: Int?
    public var kind: String
    public var time: String
    public var ready: String
    /// The time the pin is shown leaving (`PlanDocument.pins`): a ride's when it leaves its stop.
    public var pinned: String?
    /// When the walk to the pinned ride's stop leaves its start, when that is another minute than `pinned`.
    public var pinnedWalkLeaves: String?
    /// The plan's "arrive by" time ("arrives_after_arrive_by" only).
    public var arriveBy: String?

    public init(option: Int, pinnedSegment: Int?, kind: String, time: String, ready: String, pinned: String?,
                pinnedWalkLeaves: String? = nil, arriveBy: String? = nil) {
        self.option = option
        self.pinnedSegment = pinnedSegment
        self.kind = kind
        self.time = time
        self.ready = ready
        self.pinned = pinned
        self.pinnedWalkLeaves = pinnedWalkLeaves
        self.arriveBy = arriveBy
    }
}
