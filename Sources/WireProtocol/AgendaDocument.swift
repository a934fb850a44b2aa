extension Params {
    /// `agenda.day`: `day` is `YYYY-MM-DD`, or `today`, `tomorrow` or `yesterday` (default: today)
    /// on the daemon's clock, in each plan's region zone.
    public struct AgendaDay: Hashable, Sendable, Codable {
        public var day: String?
        public init(day: String? = nil) { self.day = day }
    }
}

/// `agenda.day`: every stored plan that leaves on the day, in order of leaving.
public struct AgendaDocument: Hashable, Sendable, Codable {
    /// The day asked for, as asked (a date, or `today`, `tomorrow`, `yesterday`); null when the
    /// default (today, in each plan's zone) was.
    @NullWhenNil public var day: String?
    public var plans: [AgendaEntryDocument]

    public init(day: String?, plans: [AgendaEntryDocument]) {
        self.day = day
        self.plans = plans
    }
}

/// One plan of the agenda. Times are ISO 8601 in the plan's region zone (`time_zone`).
public struct AgendaEntryDocument: Hashable, Sendable, Codable {
    public var id: Int64
    public var title: String
    /// `YYYY-MM-DD` in the plan's zone.
    public var day: String
    /// When to leave the origin.
    public var leave: String
    /// Null when a segment has no route (the plan is `incomplete`).
    @NullWhenNil public var arrival: String?
    /// Days from `day` to the arrival's day: 1 for a plan arriving after midnight ("+1d").
    public var arrivalDays: Int
    /// The first leg in words: "walk 6 min to Rautatieasema C, bus 6 at 08:12", naming the first
    /// ride when the first leg walks to it ("walk 2 min to Keskustori B, then tram 3 at 10:26").
    public var firstLeg: String
    /// Most serious first, from `incomplete`, `cancelled`, `skips_stop`, `missed_connection`,
    /// `missed_change`, `outside_coverage`, `delayed`, `pending_update`; just `on_time` when none
    /// applies. These words are stable (new ones may be added: a client shows an unknown one as is).
    public var states: [String]
    /// Each state for a person, with what it is about: "incomplete: no route on segment 3",
    /// "missed connection on segment 2", "delayed +15 min", "on time".
    public var stateWords: [String]
    public var generation: Int64
    public var timeZone: String

    public init(id: Int64, title: String, day: String, leave: String, arrival: String?, arrivalDays: Int = 0, firstLeg: String,
                states: [String], stateWords: [String] = [], generation: Int64, timeZone: String) {
        self.id = id
        self.title = title
        self.day = day
        self.leave = leave
        self.arrival = arrival
        self.arrivalDays = arrivalDays
        self.firstLeg = firstLeg
        self.states = states
        self.stateWords = stateWords
        self.generation = generation
        self.timeZone = timeZone
    }
}
