/// Params of the day-plan methods that are not edits (`plan.alternatives`, `plan.copy`; the
/// edits' own are in `PlanEdits/`). Node, segment and option numbers start at 1.
extension Params {
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
