/// The params and result of `history.rerun` and `history.delete` (the list methods take
/// `Params.HistoryList`).
extension Params {
    /// `history.rerun`: a route history entry's `id`, and optionally another time (`at`, depart at).
    public struct HistoryRerun: Hashable, Sendable, Codable {
        public var id: String
        public var at: String?
        public init(id: String, at: String? = nil) {
            self.id = id
            self.at = at
        }
    }

    /// `history.delete`: an entry's `id` (`s12` a search, `r7` a route).
    public struct HistoryEntryID: Hashable, Sendable, Codable {
        public var id: String
        public init(id: String) { self.id = id }
    }
}

/// `history.delete`: the entry removed.
public struct HistoryDeletedDocument: Hashable, Sendable, Codable {
    public var deleted: String
    public init(deleted: String) { self.deleted = deleted }
}

/// `history.rerun`: a comparison entry is compared again (a `compare` result); an entry that
/// `plan.new` made becomes a new plan from its recorded places and options (a `plan.new`
/// result). On the wire it is the document itself; a plan is the one with `segments`.
public enum RerunDocument: Hashable, Sendable, Codable {
    case compare(CompareDocument)
    case plan(PlanDocument)

    private enum Keys: String, CodingKey { case segments }

    public init(from decoder: Decoder) throws {
        if try decoder.container(keyedBy: Keys.self).contains(.segments) {
            self = .plan(try PlanDocument(from: decoder))
        } else {
            self = .compare(try CompareDocument(from: decoder))
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .compare(let document): try document.encode(to: encoder)
        case .plan(let document): try document.encode(to: encoder)
        }
    }
}

/// A route history entry that `plan.new` made: what `history.rerun` makes again.
public struct HistoryPlanDocument: Hashable, Sendable, Codable {
    /// The plan's title when it was made.
    public var title: String
    /// True when the user gave the title (a rerun keeps it); else it is generated from the places.
    public var titleGiven: Bool
    /// `walk`, `transit`, `car` or `fastest`.
    public var preset: WirePreset
    public var pace: WirePace
    /// The places between the ends, in order.
    public var via: [PlaceDocument]
    /// The plan's step-free setting (absent from older daemons: any).
    public var access: AccessLevel?

    public init(title: String, titleGiven: Bool, preset: WirePreset, pace: WirePace, via: [PlaceDocument], access: AccessLevel? = nil) {
        self.access = access
        self.title = title
        self.titleGiven = titleGiven
        self.preset = preset
        self.pace = pace
        self.via = via
    }
}

/// The options a comparison in route history was asked with.
public struct HistoryCompareDocument: Hashable, Sendable, Codable {
    public var pace: WirePace
    /// `any`, `wheelchair` or `wheelchair_strict`.
    public var access: AccessLevel
    /// The modes compared, in order.
    public var modes: [WireMode]

    public init(pace: WirePace, access: AccessLevel, modes: [WireMode]) {
        self.pace = pace
        self.access = access
        self.modes = modes
    }
}
