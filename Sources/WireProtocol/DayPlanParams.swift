/// Params of the day-plan and choice methods (`plan.stay`, `plan.alternatives`, `plan.choose`,
/// `plan.move`, `plan.rename`, `plan.copy`). Node, segment and option numbers start at 1.
extension Params {
    /// Exactly one of `duration_s`, `until` (a time) or `clear: true`.
    public struct PlanStay: Hashable, Sendable, Codable {
        public var id: Int64
        public var node: Int
        public var durationS: Double?
        public var until: String?
        public var clear: Bool?
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public init(id: Int64, node: Int, durationS: Double? = nil, until: String? = nil, clear: Bool? = nil,
                    expectedGeneration: Int64? = nil) {
            self.expectedGeneration = expectedGeneration
            self.id = id
            self.node = node
            self.durationS = durationS
            self.until = until
            self.clear = clear
        }
    }

    public struct PlanAlternatives: Hashable, Sendable, Codable {
        public var id: Int64
        public var segment: Int
        /// 1 to 20, default 5.
        public var count: Int?
        public init(id: Int64, segment: Int, count: Int? = nil) {
            self.id = id
            self.segment = segment
            self.count = count
        }
    }

    public struct PlanChoose: Hashable, Sendable, Codable {
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

    public struct PlanMove: Hashable, Sendable, Codable {
        public var id: Int64
        public var node: Int
        public var place: String
        public var region: String?
        public var near: String?
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public init(id: Int64, node: Int, place: String, region: String? = nil, near: String? = nil,
                    expectedGeneration: Int64? = nil) {
            self.expectedGeneration = expectedGeneration
            self.id = id
            self.node = node
            self.place = place
            self.region = region
            self.near = near
        }
    }

    public struct PlanRename: Hashable, Sendable, Codable {
        public var id: Int64
        public var title: String
        /// An edit fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?
        public init(id: Int64, title: String, expectedGeneration: Int64? = nil) {
            self.expectedGeneration = expectedGeneration
            self.id = id
            self.title = title
        }
    }

    public struct PlanCopy: Hashable, Sendable, Codable {
        public var id: Int64
        /// Default "TITLE (copy)".
        public var title: String?
        /// The copy is made only while the plan is at this generation (else `conflict`, no copy).
        public var expectedGeneration: Int64?
        public init(id: Int64, title: String? = nil, expectedGeneration: Int64? = nil) {
            self.id = id
            self.title = title
            self.expectedGeneration = expectedGeneration
        }
    }
}
