/// `compare`: walk, transit and car side by side for one trip.
public struct CompareDocument: Hashable, Sendable, Codable {
    public var from: PlaceDocument
    public var to: PlaceDocument
    /// One per mode, in the order walk, transit, car.
    public var options: [CompareOption]
    public var timeZone: String

    public init(from: PlaceDocument, to: PlaceDocument, options: [CompareOption], timeZone: String) {
        self.from = from
        self.to = to
        self.options = options
        self.timeZone = timeZone
    }

    enum CodingKeys: String, CodingKey {
        case from, to, options
        case timeZone = "time_zone"
    }
}

/// One mode's answer, or its `error` when that mode found nothing (the others still answer).
public struct CompareOption: Hashable, Sendable, Codable {
    public var mode: String
    public var durationS: Double?
    public var departure: String?
    public var arrival: String?
    public var distanceM: Double?
    public var transfers: Int?
    /// True on the quickest option that has an answer.
    public var fastest: Bool
    public var lines: [String]
    public var error: WireError?

    public init(mode: String, durationS: Double?, departure: String?, arrival: String?, distanceM: Double?,
                transfers: Int?, fastest: Bool, lines: [String], error: WireError?) {
        self.mode = mode
        self.durationS = durationS
        self.departure = departure
        self.arrival = arrival
        self.distanceM = distanceM
        self.transfers = transfers
        self.fastest = fastest
        self.lines = lines
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case mode, departure, arrival, transfers, fastest, lines, error
        case durationS = "duration_s"
        case distanceM = "distance_m"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mode, forKey: .mode)
        try c.encode(durationS, forKey: .durationS)
        try c.encode(departure, forKey: .departure)
        try c.encode(arrival, forKey: .arrival)
        try c.encode(distanceM, forKey: .distanceM)
        try c.encode(transfers, forKey: .transfers)
        try c.encode(fastest, forKey: .fastest)
        try c.encode(lines, forKey: .lines)
        try c.encode(error, forKey: .error)
    }
}
