extension Params {
    public struct PlanChoose: PlanEditParams {
        public static let method = WireMethod(declaring: "plan.choose")
        public var id: Int64
        public var segment: Int
        /// The option's number in `plan.alternatives` (asked again with the same `count`).
        public var option: Int
        public var count: Int?
        /// The option as the user saw it listed: its departure (a time) and its rides' trips.
        /// When given, they identify the option (the trips first) and `option` is only checked
        /// against them: a list asked again later (another edit before it in `plan.edits`, a new
        /// timetable) may hold it under another number, or only when asked from that departure.
        public var departure: String?
        /// Spelled `tripIds` so that the coders' snake_case strategy reads `trip_ids`.
        public var tripIds: [String]?
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public init(id: Int64, segment: Int, option: Int, count: Int? = nil, departure: String? = nil, tripIds: [String]? = nil,
                    expectedGeneration: Int64? = nil) {
            self.expectedGeneration = expectedGeneration
            self.id = id
            self.segment = segment
            self.option = option
            self.count = count
            self.departure = departure
            self.tripIds = tripIds
        }
    }
}
