import Foundation
import Planner

/// One route the user asked for: where from, where to, the modes of its segments, and when;
/// since schema 4 also what was typed, the region, the requested time and the answer.
/// Entries recorded before schema 4 have nil in those fields.
public struct RouteHistoryEntry: Sendable, Hashable, Codable, Identifiable {
    public var from: Place
    public var to: Place
    public var modes: [TravelMode]
    public var date: Date
    /// What the user typed for each end.
    public var fromText: String?
    public var toText: String?
    public var region: String?
    /// The time asked for (leave now, depart at, arrive by).
    public var requestedTime: TimePreference?
    /// Each mode compared with its door-to-door duration in whole seconds (nil: no answer).
    public var answers: [ModeAnswer]?
    public var fastest: TravelMode?
    /// For an entry made by `plan new` (since schema 9): its places between the ends and its
    /// options; nil for a comparison (and for plans recorded before).
    public var plan: PlanRequest?
    /// For a comparison (since schema 17): the pace, access and modes it was asked with; nil for
    /// a plan's entry and for comparisons recorded before.
    public var compare: CompareRequest?

    /// One mode's answer in the summary.
    public struct ModeAnswer: Sendable, Hashable, Codable {
        public var mode: TravelMode
        public var durationS: Int?
        public init(mode: TravelMode, durationS: Int?) {
            self.mode = mode
            self.durationS = durationS
        }
    }

    public init(from: Place, to: Place, modes: [TravelMode], date: Date, fromText: String? = nil, toText: String? = nil,
                region: String? = nil, requestedTime: TimePreference? = nil, answers: [ModeAnswer]? = nil,
                fastest: TravelMode? = nil, plan: PlanRequest? = nil, compare: CompareRequest? = nil) {
        self.from = from
        self.to = to
        self.modes = modes
        self.date = date
        self.fromText = fromText
        self.toText = toText
        self.region = region
        self.requestedTime = requestedTime
        self.answers = answers
        self.fastest = fastest
        self.plan = plan
        self.compare = compare
    }

    /// Every place of the route in order: the ends, and a plan's places between them.
    public var places: [Place] { [from] + (plan?.via ?? []) + [to] }

    /// What de-duplicates history: a comparison's two ends, or a plan's places in order (a
    /// plan and a comparison are never one entry). Asking for the same again (with any modes
    /// or options) moves it to the front with the new ones and date.
    public var id: String {
        guard plan != nil else { return "\(from.id) → \(to.id)" }
        return "plan: " + places.map(\.id).joined(separator: " → ")
    }
}
