/// A plan as `plan.*` methods return it. Node and segment numbers are 1-based everywhere on
/// the wire, as a person counts and as `umctl plan show` prints them.
public struct PlanDocument: Hashable, Sendable, Codable {
    public var id: Int64
    @NullWhenNil public var title: String?
    public var nodes: [NodeDocument]
    public var segments: [SegmentDocument]
    /// Null unless every segment has a leg (a partial sum would look faster than reality).
    @NullWhenNil public var totalDurationS: Double?
    public var totalDistanceM: Double
    /// An arrive-by plan whose late pins have rides proposed: its total as the traveller follows
    /// the proposals, which its node times show (`total_duration_s` is null: as pinned it arrives
    /// too late); left out otherwise.
    public var totalFollowingProposalsS: Double?
    public var pending: [PendingDocument]
    public var pace: WirePace
    /// The plan's step-free setting (`plan.access`); absent from older daemons (read as any).
    public var access: AccessLevel?
    /// `leave_now`, `depart_at` or `arrive_by`, with `time` for the last two.
    public var timePreference: TimePreferenceDocument
    /// The first 1-based segment whose departure is pinned, if any.
    @NullWhenNil public var pinnedSegment: Int?
    /// Every pinned segment, 1-based, in order (a plan holds one pin per segment).
    public var pinnedSegments: [Int]?
    /// Every pin with the departure the user pinned, in segment order (`pinned_segments` with times).
    public var pins: [PinDocument]?
    /// Increases with every edit; a result from an older generation is never stored or shown.
    public var generation: Int64
    /// The region's time zone the instants are written in.
    public var timeZone: String
    /// The pins this edit removed (a pin never goes silently); left out when none went.
    public var removedPins: [RemovedPinDocument]?
    /// Why the plan's day has no transit timetable: the day is outside every feed of its
    /// region ("2022-04-02 is after the Tampere timetable ends (2022-03-31)"); left out when a
    /// feed covers it or the plan has no transit segment.
    public var coverageNote: String?
    /// The sum of the legs' prices when every transit and car leg has one in one currency; null
    /// otherwise (and for a plan that only walks), with `price_note` saying why.
    @NullWhenNil public var price: PriceDocument?
    @NullWhenNil public var priceNote: String?
    /// The places this request typed as text and searched (`plan.new`'s places and `near`,
    /// `plan.insert`'s and `plan.move`'s place and `near`, alone or inside `plan.edits`), each with its `match` and, unless
    /// exact, its `match_note`; left out of other answers.
    public var matched: [PlaceDocument]?
    /// Why the segments `plan.insert` made without a `mode` have theirs ("segment 2 by transit:
    /// 12 min door to door (walks and waits included) where walking takes 28 min", "segment 3 walked: walking (6 min) is no slower than
    /// transit (9 min)"), and `plan.mode`'s when it renumbered the segments ("segments renumbered
    /// (3 → 1): segment 1 is now …"); left out of other answers.
    public var modeNotes: [String]?

    public init(id: Int64, title: String?, nodes: [NodeDocument], segments: [SegmentDocument],
                totalDurationS: Double?, totalDistanceM: Double, pending: [PendingDocument], pace: WirePace,
                timePreference: TimePreferenceDocument, pinnedSegment: Int?, generation: Int64, timeZone: String,
                removedPins: [RemovedPinDocument]? = nil, pinnedSegments: [Int]? = nil, pins: [PinDocument]? = nil,
                price: PriceQuoteParts? = nil,
                access: AccessLevel? = nil) {
        self.access = access
        self.id = id
        self.title = title
        self.nodes = nodes
        self.segments = segments
        self.totalDurationS = totalDurationS
        self.totalDistanceM = totalDistanceM
        self.pending = pending
        self.pace = pace
        self.timePreference = timePreference
        self.pinnedSegment = pinnedSegment
        self.generation = generation
        self.timeZone = timeZone
        self.removedPins = removedPins
        self.pinnedSegments = pinnedSegments
        self.pins = pins
        self.price = price?.price
        self.priceNote = price?.note
    }
}

/// A pinned departure: the segment (1-based) and the time the user pinned it to leave: a
/// pinned ride's vehicle departure, never the start of the walk to its stop (a walk or car leg
/// that cannot leave then still carries its own, later time).
public struct PinDocument: Hashable, Sendable, Codable {
    public var segment: Int
    public var departure: String

    public init(segment: Int, departure: String) {
        self.segment = segment
        self.departure = departure
    }
}

/// A pinned departure an edit removed: the segment's ends (by name, as the plan had them) and
/// the departure that was pinned.
public struct RemovedPinDocument: Hashable, Sendable, Codable {
    public var from: String
    public var to: String
    public var departure: String

    public init(from: String, to: String, departure: String) {
        self.from = from
        self.to = to
        self.departure = departure
    }
}

public struct NodeDocument: Hashable, Sendable, Codable {
    public var name: String
    /// The words for being there, for a sentence "you must be … by 10:00": "at TAYS A", or the
    /// name alone when it already says where ("near Tarmonkatu", a point named by what is near).
    public var at: String
    public var lat: Double
    public var lon: Double
    /// From the plan's schedule; null when no leg gives it a time.
    @NullWhenNil public var time: String?
    /// A stop the planner inserted, not the user.
    public var inferred: Bool
    public var currentLocation: Bool
    /// When the next leg leaves, when the node has a stay (`time` is then the arrival); left out without one.
    public var departure: String?
    /// The stay: seconds, or a time to stay until (`plan.stay`); both left out without one.
    public var stayS: Double?
    public var stayUntil: String?
    /// Why the stay holds nobody: its "until" ended before the traveller gets there (they
    /// leave on arrival); left out otherwise.
    public var stayNote: String?

    public init(name: String, lat: Double, lon: Double, time: String?, inferred: Bool, currentLocation: Bool,
                departure: String? = nil, stayS: Double? = nil, stayUntil: String? = nil, stayNote: String? = nil) {
        self.name = name
        self.at = Self.beingAt(name)
        self.lat = lat
        self.lon = lon
        self.time = time
        self.inferred = inferred
        self.currentLocation = currentLocation
        self.departure = departure
        self.stayS = stayS
        self.stayUntil = stayUntil
        self.stayNote = stayNote
    }

    /// "at TAYS A"; a name that already says where is its own phrase (trial 53: "you must be at
    /// near Tarmonkatu by 10:00").
    public static func beingAt(_ name: String) -> String {
        name.hasPrefix("near ") ? name : "at \(name)"
    }
}

public struct SegmentDocument: Hashable, Sendable, Codable {
    public var mode: WireMode
    /// The user decided this segment's mode (or departure); automation leaves it alone.
    public var locked: Bool
    /// Null when not computed yet or when routing found nothing (see `error`).
    public var leg: LegDocument?
    /// Why the leg is missing, when the last computation failed.
    public var error: WireError?
    /// The leg leaves (a transit leg, or a pinned departure) before the traveller can get to
    /// its start from the plan's requested departure: that connection is missed.
    public var missedConnection: Bool
    /// How a missed connection is shown, as the daemon judged it (every client says the same):
    /// `"late"` when it arrives after it is due (an arrive-by plan's, with `due`), else
    /// `"missed"`. Left out when the connection is made.
    public var missedAs: String?
    /// The lines of the alternative the user chose (`plan.choose`, `plan.pin` with `line`).
    public var chosenLines: [String]
    /// The leg rides other lines than `chosenLines`: the user accepted a proposal on another
    /// line, which replaced the choice (left out when false).
    public var lineChoiceReplaced: Bool
    /// Why the segment has its mode, stored with the plan: "walked: walking (6 min) is no slower
    /// than transit (9 min door to door from when the walk leaves, …)" (a preset or a day plan
    /// walked it), an insert's reason, or of a ride the user chose "walking (6 min) is no slower
    /// than transit (9 min door to door)"; left out when none.
    public var modeNote: String?
    /// For a missed connection going forward, when the traveller can really be where it leaves:
    /// at its first ride's stop (after the access walk) or a pinned walk's start. The leg keeps
    /// its ride's times; this is what the traveller can do ("bus 6 leaves Koskipuisto D at 09:02;
    /// the walk gets you there at 10:38"). Left out when not known or not missed.
    public var reached: String?
    /// For a journey missed at a change a realtime delay broke (the daemon's judgement,
    /// `RoutePlan.missedChanges`): the number (from 1) in `leg.rides` of the ride that leaves
    /// before the ride before it gets the traveller to its stop, at `reached`. Left out when the
    /// segment is not missed, or missed at its start.
    public var missedChangeRide: Int?
    /// For a segment arriving late in an arrive-by plan, when the traveller must be at its end to
    /// arrive in time: the plan's "arrive by" at the destination, else when the next leg must
    /// leave less the stay there. Not the end node's `time` (when the late leg gets there).
    /// Left out when not known or not late.
    public var due: String?
    /// Of a missed segment whose pin gave way: what gave way and what held; left out otherwise.
    public var givesWay: GivesWayDocument?

    public init(mode: WireMode, locked: Bool, leg: LegDocument?, error: WireError? = nil, missedConnection: Bool = false,
                missedAs: String? = nil, chosenLines: [String] = [], lineChoiceReplaced: Bool = false, modeNote: String? = nil, reached: String? = nil,
                missedChangeRide: Int? = nil, due: String? = nil, givesWay: GivesWayDocument? = nil) {
        self.mode = mode
        self.locked = locked
        self.leg = leg
        self.error = error
        self.missedConnection = missedConnection
        self.missedAs = missedAs
        self.chosenLines = chosenLines
        self.lineChoiceReplaced = lineChoiceReplaced
        self.modeNote = modeNote
        self.reached = reached
        self.missedChangeRide = missedChangeRide
        self.due = due
        self.givesWay = givesWay
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mode = try c.decode(WireMode.self, forKey: .mode)
        locked = try c.decode(Bool.self, forKey: .locked)
        leg = try c.decodeIfPresent(LegDocument.self, forKey: .leg)
        error = try c.decodeIfPresent(WireError.self, forKey: .error)
        missedConnection = try c.decodeIfPresent(Bool.self, forKey: .missedConnection) ?? false
        missedAs = try c.decodeIfPresent(String.self, forKey: .missedAs)
        chosenLines = try c.decodeIfPresent([String].self, forKey: .chosenLines) ?? []
        lineChoiceReplaced = try c.decodeIfPresent(Bool.self, forKey: .lineChoiceReplaced) ?? false
        modeNote = try c.decodeIfPresent(String.self, forKey: .modeNote)
        reached = try c.decodeIfPresent(String.self, forKey: .reached)
        missedChangeRide = try c.decodeIfPresent(Int.self, forKey: .missedChangeRide)
        due = try c.decodeIfPresent(String.self, forKey: .due)
        givesWay = try c.decodeIfPresent(GivesWayDocument.self, forKey: .givesWay)
    }

    /// Hand-written because `chosen_lines` is left out when empty and `line_choice_replaced` when
    /// false (`leg` is null, `error`, `missed_as`, `mode_note`, `reached`, `missed_change_ride` and `due` left out, when nil).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mode, forKey: .mode)
        try c.encode(locked, forKey: .locked)
        try c.encode(leg, forKey: .leg)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encode(missedConnection, forKey: .missedConnection)
        try c.encodeIfPresent(missedAs, forKey: .missedAs)
        if !chosenLines.isEmpty { try c.encode(chosenLines, forKey: .chosenLines) }
        if lineChoiceReplaced { try c.encode(true, forKey: .lineChoiceReplaced) }
        try c.encodeIfPresent(modeNote, forKey: .modeNote)
        try c.encodeIfPresent(reached, forKey: .reached)
        try c.encodeIfPresent(missedChangeRide, forKey: .missedChangeRide)
        try c.encodeIfPresent(due, forKey: .due)
        try c.encodeIfPresent(givesWay, forKey: .givesWay)
    }

    /// Plain names: the coders' snake_case strategy writes `missed_connection`.
    enum CodingKeys: String, CodingKey {
        case mode, locked, leg, error, missedConnection, missedAs, chosenLines, lineChoiceReplaced, modeNote, reached, missedChangeRide, due, givesWay
    }
}

/// `gives_way` of a missed segment: when a pinned departure cannot be made, which constraint
/// gave way and which held, as the daemon judged it (every client says the same).
public struct GivesWayDocument: Hashable, Sendable, Codable {
    /// One constraint. `kind`: `start` (`time`), `leaving_now`, `arriving_by` (`time`), `pin`
    /// (`segment`, from 1), `stay_until` (`node` from 1, `name`, `time`), `stay` (`node`,
    /// `name`, `stay_s`).
    public struct Constraint: Hashable, Sendable, Codable {
        public var kind: String
        public var segment: Int?
        public var node: Int?
        public var name: String?
        public var time: String?
        public var stayS: Double?

        public init(kind: String, segment: Int? = nil, node: Int? = nil, name: String? = nil, time: String? = nil,
                    stayS: Double? = nil) {
            self.kind = kind
            self.segment = segment
            self.node = node
            self.name = name
            self.time = time
            self.stayS = stayS
        }
    }

    /// What gave way: the pin on a segment (`pin`), or an arrive-by plan's arrival (`arriving_by`).
    public var gives: Constraint
    /// What held, in the order a sentence names them.
    public var held: [Constraint]

    public init(gives: Constraint, held: [Constraint]) {
        self.gives = gives
        self.held = held
    }
}

public struct LegDocument: Hashable, Sendable, Codable {
    public var durationS: Double
    @NullWhenNil public var distanceM: Double?
    @NullWhenNil public var departure: String?
    @NullWhenNil public var arrival: String?
    public var transfers: Int
    public var rides: [RideDocument]
    /// Transit: the access walk, each change's walk and the egress walk, in order.
    public var walks: [WalkDocument]
    /// Transit: walking the whole way is no slower than this journey (the planner prefers the walk).
    public var walkingIsNoSlower: Bool
    /// Walk and car: the line as `[lat, lon]` pairs; only when `plan.show` is asked for geometry.
    public var geometry: [[Double]]?
    /// Transit: the leg's fare; car: the car cost estimate; null when unknown (and for walk),
    /// with `price_note` saying why.
    @NullWhenNil public var price: PriceDocument?
    @NullWhenNil public var priceNote: String?
    /// Walk and transit: `step_free`, `unknown` or `no`; left out for car and bike legs (and from
    /// older daemons).
    public var accessibility: String?

    public init(durationS: Double, distanceM: Double?, departure: String?, arrival: String?,
                transfers: Int, rides: [RideDocument], walks: [WalkDocument] = [], walkingIsNoSlower: Bool = false,
                price: PriceDocument? = nil, priceNote: String? = nil, accessibility: String? = nil) {
        self.accessibility = accessibility
        self.durationS = durationS
        self.distanceM = distanceM
        self.departure = departure
        self.arrival = arrival
        self.transfers = transfers
        self.rides = rides
        self.walks = walks
        self.walkingIsNoSlower = walkingIsNoSlower
        self.price = price
        self.priceNote = priceNote
    }

    /// Spelled by the wire's snake_case strategy; written out for the hand-written decoder.
    enum CodingKeys: CodingKey {
        case durationS, distanceM, departure, arrival, transfers, rides, walks, walkingIsNoSlower, geometry, price, priceNote
        case accessibility
    }

    /// `walks` and `walking_is_no_slower` are read as empty/false when absent (older daemons).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        durationS = try c.decode(Double.self, forKey: .durationS)
        distanceM = try c.decodeIfPresent(Double.self, forKey: .distanceM)
        departure = try c.decodeIfPresent(String.self, forKey: .departure)
        arrival = try c.decodeIfPresent(String.self, forKey: .arrival)
        transfers = try c.decode(Int.self, forKey: .transfers)
        rides = try c.decode([RideDocument].self, forKey: .rides)
        walks = try c.decodeIfPresent([WalkDocument].self, forKey: .walks) ?? []
        walkingIsNoSlower = try c.decodeIfPresent(Bool.self, forKey: .walkingIsNoSlower) ?? false
        geometry = try c.decodeIfPresent([[Double]].self, forKey: .geometry)
        price = try c.decodeIfPresent(PriceDocument.self, forKey: .price)
        priceNote = try c.decodeIfPresent(String.self, forKey: .priceNote)
        accessibility = try c.decodeIfPresent(String.self, forKey: .accessibility)
    }
}

/// One walk of a transit leg: to the first stop, between rides, or to the destination.
public struct WalkDocument: Hashable, Sendable, Codable {
    /// `access`, `transfer` or `egress`.
    public var kind: String
    public var from: String
    public var to: String
    public var start: String
    public var durationS: Double
    public var distanceM: Double
    /// The walk's line as `[lat, lon]` pairs, when asked for.
    public var geometry: [[Double]]?

    public init(kind: String, from: String, to: String, start: String, durationS: Double, distanceM: Double) {
        self.kind = kind
        self.from = from
        self.to = to
        self.start = start
        self.durationS = durationS
        self.distanceM = distanceM
    }
}

/// One vehicle ride of a transit leg.
public struct RideDocument: Hashable, Sendable, Codable {
    public var line: String
    public var vehicle: String
    @NullWhenNil public var headsign: String?
    public var from: String
    public var to: String
    public var departure: String
    public var arrival: String
    /// The GTFS trip ("<trip_id>@HH:MM:SS" for a run of a frequency-based trip), when known:
    /// lets a script tell "the same bus" from "another bus at the same time".
    @NullWhenNil public var tripID: String?
    /// Seconds between vehicles when the ride is headway-based service ("about every 10 min"):
    /// its `departure` and `arrival` are then estimates, not a schedule. Null for scheduled rides.
    @NullWhenNil public var headwayS: Int?
    /// The ride's line as `[lat, lon]` pairs (the feed's shape, else through its stops), when asked for
    /// (`plan.show` with geometry); left out otherwise.
    public var geometry: [[Double]]?
    /// The times come from a realtime feed: `departure` and `arrival` are live, and the
    /// timetable's are `scheduled_departure` and `scheduled_arrival`.
    public var realtime: Bool
    @NullWhenNil public var scheduledDeparture: String?
    @NullWhenNil public var scheduledArrival: String?
    /// Seconds late (negative: early) at boarding and at alighting; null without live times.
    @NullWhenNil public var delayS: Int?
    @NullWhenNil public var arrivalDelayS: Int?
    /// A realtime feed cancelled the trip (or skips where this ride boards or alights).
    public var cancelled: Bool
    /// When cancelled because the running trip does not call at this ride's boarding or alighting
    /// stop: that stop's name ("does not stop at Keskustori B"); null when the trip is off or runs.
    @NullWhenNil public var skippedStop: String?
    /// Service alerts touching the ride (its agency, route, trip or stops): each text once, at
    /// most 5, `no_service` first.
    public var alerts: [AlertDocument]
    /// How many more distinct alerts touch the ride than `alerts` lists; null when none.
    @NullWhenNil public var alertsOmitted: Int?
    /// The GTFS stop_id where the ride boards and alights, when known.
    @NullWhenNil public var fromStopID: String?
    @NullWhenNil public var toStopID: String?

    /// `tripId` so that the coders' snake_case strategy writes `trip_id` and reads it back
    /// (from `trip_id` it makes `tripId`, never `tripID`).
    enum CodingKeys: String, CodingKey {
        case line, vehicle, headsign, from, to, departure, arrival, geometry, headwayS
        case tripID = "tripId"
        case realtime, scheduledDeparture, scheduledArrival, delayS, arrivalDelayS, cancelled, skippedStop, alerts, alertsOmitted
        case fromStopID = "fromStopId", toStopID = "toStopId"
    }

    public init(line: String, vehicle: String, headsign: String?, from: String, to: String,
                departure: String, arrival: String, tripID: String? = nil, headwayS: Int? = nil,
                realtime: Bool = false, scheduledDeparture: String? = nil, scheduledArrival: String? = nil,
                delayS: Int? = nil, arrivalDelayS: Int? = nil, cancelled: Bool = false, skippedStop: String? = nil,
                alerts: [AlertDocument] = [], alertsOmitted: Int? = nil, fromStopID: String? = nil, toStopID: String? = nil) {
        self.line = line
        self.vehicle = vehicle
        self.headsign = headsign
        self.from = from
        self.to = to
        self.departure = departure
        self.arrival = arrival
        self.tripID = tripID
        self.headwayS = headwayS
        self.realtime = realtime
        self.scheduledDeparture = scheduledDeparture
        self.scheduledArrival = scheduledArrival
        self.delayS = delayS
        self.arrivalDelayS = arrivalDelayS
        self.cancelled = cancelled
        self.skippedStop = skippedStop
        self.alerts = alerts
        self.alertsOmitted = alertsOmitted
        self.fromStopID = fromStopID
        self.toStopID = toStopID
    }
}

/// A service alert under a ride (a GTFS-Realtime Alert touching it).
public struct AlertDocument: Hashable, Sendable, Codable {
    /// The feed entity's id.
    public var id: String
    public var header: String
    @NullWhenNil public var description: String?
    /// The text's language (BCP-47), when the feed says.
    @NullWhenNil public var language: String?
    @NullWhenNil public var url: String?
    /// GTFS-Realtime effect in lower case: `no_service`, `detour`, `reduced_service`, …
    public var effect: String
    @NullWhenNil public var cause: String?
    /// When it applies (local time with offset); null ends are open.
    @NullWhenNil public var activeFrom: String?
    @NullWhenNil public var activeUntil: String?

    public init(id: String, header: String, description: String? = nil, language: String? = nil, url: String? = nil,
                effect: String, cause: String? = nil, activeFrom: String? = nil, activeUntil: String? = nil) {
        self.id = id
        self.header = header
        self.description = description
        self.language = language
        self.url = url
        self.effect = effect
        self.cause = cause
        self.activeFrom = activeFrom
        self.activeUntil = activeUntil
    }
}

/// "selected 22 min → latest 25 min" for a pinned segment, waiting for accept or dismiss. When
/// no ride can be caught any more, `latest` is null and `no_catchable_ride` says so (dismiss only).
public struct PendingDocument: Hashable, Sendable, Codable {
    /// The answer for the pinned segment: one of the two, never both or neither. On the wire,
    /// `latest` holds a ride (else null) and `no_catchable_ride` the other answer (else null).
    public enum Proposal: Hashable, Sendable {
        case ride(LegDocument)
        case nothingCatchable(NoCatchableRideDocument)
    }

    public var segment: Int
    public var selected: LegDocument
    public var proposal: Proposal

    public init(segment: Int, selected: LegDocument, proposal: Proposal) {
        self.segment = segment
        self.selected = selected
        self.proposal = proposal
    }

    /// The proposed leg; nil when nothing can be caught.
    public var latest: LegDocument? {
        if case .ride(let leg) = proposal { return leg }
        return nil
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        segment = try c.decode(Int.self, forKey: .segment)
        selected = try c.decode(LegDocument.self, forKey: .selected)
        if let latest = try c.decodeIfPresent(LegDocument.self, forKey: .latest) {
            proposal = .ride(latest)
        } else if let answer = try c.decodeIfPresent(NoCatchableRideDocument.self, forKey: .noCatchableRide) {
            proposal = .nothingCatchable(answer)
        } else {
            throw DecodingError.dataCorruptedError(forKey: .latest, in: c,
                                                   debugDescription: "a pending update needs latest or no_catchable_ride")
        }
    }

    /// Hand-written to keep the two nullable fields the protocol has always had (both written).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(segment, forKey: .segment)
        try c.encode(selected, forKey: .selected)
        switch proposal {
        case .ride(let latest):
            try c.encode(latest, forKey: .latest)
            try c.encodeNil(forKey: .noCatchableRide)
        case .nothingCatchable(let answer):
            try c.encodeNil(forKey: .latest)
            try c.encode(answer, forKey: .noCatchableRide)
        }
    }

    /// Plain names: the coders' snake_case strategy writes `no_catchable_ride`.
    enum CodingKeys: String, CodingKey { case segment, selected, latest, noCatchableRide }
}

/// No ride of any line can be caught for a missed or cancelled pin: none leaves at `time` or
/// later that service day (`no_later_ride`), or none arrives by `time` (`no_earlier_ride`, arrive-by).
public struct NoCatchableRideDocument: Hashable, Sendable, Codable {
    /// `no_later_ride` or `no_earlier_ride`.
    public var kind: String
    /// Local time with offset: when the traveller can be at the stop, or when the ride must arrive by.
    public var time: String
    /// `no_later_ride` only: when walking the segment from `time` gets there, if it does within
    /// the plan's day; what the legs after it are timed from. Left out otherwise.
    public var walkArrival: String?

    public init(kind: String, time: String, walkArrival: String? = nil) {
        self.kind = kind
        self.time = time
        self.walkArrival = walkArrival
    }
}

public struct TimePreferenceDocument: Hashable, Sendable, Codable {
    /// `leave_now`, `depart_at` or `arrive_by`.
    public var kind: String
    @NullWhenNil public var time: String?

    public init(kind: String, time: String?) {
        self.kind = kind
        self.time = time
    }
}

/// One line of `plan.list`.
public struct PlanSummaryDocument: Hashable, Sendable, Codable {
    public var id: Int64
    /// Left out when the plan has none.
    public var title: String?
    public var from: String
    public var to: String
    @NullWhenNil public var updatedAt: String?
    /// Null unless every segment has a leg.
    @NullWhenNil public var totalDurationS: Double?
    /// The day it travels (`YYYY-MM-DD` of its depart-at or arrive-by time in its region's zone);
    /// null for a plan that leaves now.
    @NullWhenNil public var day: String?
    /// The first and last node's times as `plan.show` gives them (the total is their difference),
    /// in the region's zone; null while the total is, or when the plan has no start of its own
    /// stored (then the list shows `totalDurationS` alone).
    @NullWhenNil public var departure: String?
    @NullWhenNil public var arrival: String?

    public init(id: Int64, title: String?, from: String, to: String, updatedAt: String?, totalDurationS: Double?,
                day: String? = nil, departure: String? = nil, arrival: String? = nil) {
        self.id = id
        self.title = title
        self.from = from
        self.to = to
        self.updatedAt = updatedAt
        self.totalDurationS = totalDurationS
        self.day = day
        self.departure = departure
        self.arrival = arrival
    }
}
