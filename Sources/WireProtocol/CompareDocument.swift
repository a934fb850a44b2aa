/// `compare`: walk, transit and car side by side for one trip.
public struct CompareDocument: Hashable, Sendable, Codable {
    public var from: PlaceDocument
    public var to: PlaceDocument
    /// One per mode, in the order walk, transit, car.
    public var options: [CompareOption]
    public var timeZone: String
    /// The routes on one picture, when the params asked for `map`.
    public var map: MapImageDocument?
    /// The time asked for, in `timeZone`: the `at` time, or the daemon's now for leave now (absent
    /// from older daemons). An answer on another day than this one is the next (or previous) day's.
    public var time: String?
    /// `leave_now`, `depart_at` or `arrive_by` (absent from older daemons).
    public var timeKind: String?
    /// The `near` place when it was typed as text and searched, with how it matched; else left out.
    public var near: PlaceDocument?

    public init(from: PlaceDocument, to: PlaceDocument, options: [CompareOption], timeZone: String, map: MapImageDocument? = nil,
                time: String? = nil, timeKind: String? = nil) {
        self.from = from
        self.to = to
        self.options = options
        self.timeZone = timeZone
        self.map = map
        self.time = time
        self.timeKind = timeKind
    }
}

/// One mode's answer, or its `error` when that mode found nothing (the others still answer).
public struct CompareOption: Hashable, Sendable, Codable {
    public var mode: WireMode
    @NullWhenNil public var durationS: Double?
    @NullWhenNil public var departure: String?
    @NullWhenNil public var arrival: String?
    @NullWhenNil public var distanceM: Double?
    @NullWhenNil public var transfers: Int?
    /// True on the quickest option that has an answer.
    public var fastest: Bool
    public var lines: [String]
    /// Per entry of `lines`: that ride's headway in seconds when it is headway-based service
    /// (its times are estimates), else null. Empty from daemons that predate it.
    public var headwaysS: [Int?]
    @NullWhenNil public var error: WireError?
    /// Transit: walking the whole way is no slower than this option's journey.
    public var walkingIsNoSlower: Bool
    /// Transit: the rides, with their live times, cancellation and alerts when a realtime feed
    /// knows them. Empty for walk and car (and from daemons that predate it).
    public var rides: [RideDocument]
    /// Transit: the cheapest combination of fares; car: the estimate from the daemon's car cost.
    /// Null when unknown (and for walk), with `price_note` saying why.
    @NullWhenNil public var price: PriceDocument?
    @NullWhenNil public var priceNote: String?
    /// The price is an estimate (the car's cost per km), not a fare.
    public var priceEstimate: Bool
    /// Walk and transit: the least accessible of the option's legs, `step_free`, `unknown` or
    /// `no`; left out for car and bike (and from older daemons).
    public var accessibility: String?
    /// With `compare`'s `geometry: true`: the option's lines (each `[[lat, lon]...]`), as
    /// `plan.show` with `geometry` gives its legs'; left out otherwise.
    public var geometry: [[[Double]]]?

    public init(mode: WireMode, durationS: Double?, departure: String?, arrival: String?, distanceM: Double?,
                transfers: Int?, fastest: Bool, lines: [String], headwaysS: [Int?] = [], error: WireError?,
                walkingIsNoSlower: Bool = false, rides: [RideDocument] = [], price: PriceDocument? = nil,
                priceNote: String? = nil, priceEstimate: Bool = false, accessibility: String? = nil) {
        self.accessibility = accessibility
        self.mode = mode
        self.durationS = durationS
        self.departure = departure
        self.arrival = arrival
        self.distanceM = distanceM
        self.transfers = transfers
        self.fastest = fastest
        self.lines = lines
        self.headwaysS = headwaysS
        self.error = error
        self.walkingIsNoSlower = walkingIsNoSlower
        self.rides = rides
        self.price = price
        self.priceNote = priceNote
        self.priceEstimate = priceEstimate
    }

    /// Spelled by the wire's snake_case strategy; written out for the hand-written decoder.
    enum CodingKeys: CodingKey {
        case mode, durationS, departure, arrival, distanceM, transfers, fastest, lines, headwaysS, error, walkingIsNoSlower, rides
        case price, priceNote, priceEstimate, accessibility, geometry
    }

    /// `walking_is_no_slower` is read as false, `headways_s` and `rides` as empty and the price
    /// as unknown when absent (older daemons).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mode = try c.decode(WireMode.self, forKey: .mode)
        durationS = try c.decodeIfPresent(Double.self, forKey: .durationS)
        departure = try c.decodeIfPresent(String.self, forKey: .departure)
        arrival = try c.decodeIfPresent(String.self, forKey: .arrival)
        distanceM = try c.decodeIfPresent(Double.self, forKey: .distanceM)
        transfers = try c.decodeIfPresent(Int.self, forKey: .transfers)
        fastest = try c.decode(Bool.self, forKey: .fastest)
        lines = try c.decode([String].self, forKey: .lines)
        headwaysS = try c.decodeIfPresent([Int?].self, forKey: .headwaysS) ?? []
        error = try c.decodeIfPresent(WireError.self, forKey: .error)
        walkingIsNoSlower = try c.decodeIfPresent(Bool.self, forKey: .walkingIsNoSlower) ?? false
        rides = try c.decodeIfPresent([RideDocument].self, forKey: .rides) ?? []
        price = try c.decodeIfPresent(PriceDocument.self, forKey: .price)
        priceNote = try c.decodeIfPresent(String.self, forKey: .priceNote)
        priceEstimate = try c.decodeIfPresent(Bool.self, forKey: .priceEstimate) ?? false
        accessibility = try c.decodeIfPresent(String.self, forKey: .accessibility)
        geometry = try c.decodeIfPresent([[[Double]]].self, forKey: .geometry)
    }
}
