import Foundation

/// A stop where a transit ride boards or alights.
public struct TransitStopCall: Hashable, Sendable, Codable {
    public var stopID: String?
    public var name: String
    public var coordinate: Coordinate
    /// When the vehicle calls: the live time when a realtime feed knows it, else the timetable's.
    public var time: Date
    /// The timetable's time when `time` comes from a realtime feed (equal to it when the
    /// vehicle runs on time); nil when no live time is known.
    public var scheduledTime: Date?

    public init(stopID: String? = nil, name: String, coordinate: Coordinate, time: Date, scheduledTime: Date? = nil) {
        self.stopID = stopID
        self.name = name
        self.coordinate = coordinate
        self.time = time
        self.scheduledTime = scheduledTime
    }

    /// Whether the time is live (from a realtime feed).
    public var isRealtime: Bool { scheduledTime != nil }

    /// The stop as a place of a plan (`TripCall.place` likewise).
    public var place: Place { Place(name: name, coordinate: coordinate, kind: .transitStop) }

    /// Seconds late (negative: early) against the timetable; nil when no live time is known.
    public var delaySeconds: Int? { scheduledTime.map { Int(time.timeIntervalSince($0).rounded()) } }
}

/// One vehicle ride inside a transit leg: what MapKit never told the original app.
public struct TransitRide: Hashable, Sendable, Codable {
    /// The line's short name as passengers know it ("3", "Y3").
    public var lineName: String
    /// "tram", "bus", "rail", … from GTFS `route_type`.
    public var vehicle: String
    public var headsign: String?
    public var tripID: String?
    /// Seconds between vehicles when the ride is a run of headway-based service (GTFS
    /// `frequencies.txt` with `exact_times` 0 or empty): its times are then an estimate, not
    /// a schedule. Nil for scheduled rides.
    public var headwaySeconds: Int?
    public var boarding: TransitStopCall
    public var alighting: TransitStopCall
    /// A realtime feed cancelled this trip (or skips its boarding or alighting stop): the ride
    /// is kept only to show the user's choice next to a proposal.
    public var cancelled: Bool
    /// When `cancelled` because the running trip does not call at the boarding or alighting
    /// stop: which one; nil when the trip itself is off (or runs).
    public var skippedCall: SkippedCall?
    /// Service alerts touching this ride (its agency, route, trip or stops): each text once, at
    /// most `ServiceAlert.maximumPerRide`, closures first.
    public var alerts: [ServiceAlert]
    /// How many more distinct alerts touch the ride than `alerts` holds.
    public var alertsOmitted: Int

    public init(lineName: String, vehicle: String, headsign: String? = nil, tripID: String? = nil,
                headwaySeconds: Int? = nil, boarding: TransitStopCall, alighting: TransitStopCall,
                cancelled: Bool = false, skippedCall: SkippedCall? = nil, alerts: [ServiceAlert] = [], alertsOmitted: Int = 0) {
        self.lineName = lineName
        self.vehicle = vehicle
        self.headsign = headsign
        self.tripID = tripID
        self.headwaySeconds = headwaySeconds
        self.boarding = boarding
        self.alighting = alighting
        self.cancelled = cancelled
        self.skippedCall = skippedCall
        self.alerts = alerts
        self.alertsOmitted = alertsOmitted
    }

    private enum CodingKeys: String, CodingKey {
        case lineName, vehicle, headsign, tripID, headwaySeconds, boarding, alighting, cancelled, skippedCall, alerts, alertsOmitted
    }

    /// The name of the stop the running trip does not call at (`skippedCall`), else nil.
    public var skippedStopName: String? {
        skippedCall.map { $0 == .boarding ? boarding.name : alighting.name }
    }

    /// Rides encoded before live times existed decode as running and without alerts.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(lineName: try c.decode(String.self, forKey: .lineName), vehicle: try c.decode(String.self, forKey: .vehicle),
                  headsign: try c.decodeIfPresent(String.self, forKey: .headsign),
                  tripID: try c.decodeIfPresent(String.self, forKey: .tripID),
                  headwaySeconds: try c.decodeIfPresent(Int.self, forKey: .headwaySeconds),
                  boarding: try c.decode(TransitStopCall.self, forKey: .boarding),
                  alighting: try c.decode(TransitStopCall.self, forKey: .alighting),
                  cancelled: try c.decodeIfPresent(Bool.self, forKey: .cancelled) ?? false,
                  skippedCall: try c.decodeIfPresent(SkippedCall.self, forKey: .skippedCall),
                  alerts: try c.decodeIfPresent([ServiceAlert].self, forKey: .alerts) ?? [],
                  alertsOmitted: try c.decodeIfPresent(Int.self, forKey: .alertsOmitted) ?? 0)
    }
}

/// The result of one routing query for one segment.
public struct RouteLeg: Hashable, Sendable, Codable {
    public var mode: TravelMode
    /// Seconds from departure to arrival (for transit: waiting at the first stop excluded,
    /// walks and transfers between rides included).
    public var expectedTravelTime: TimeInterval
    /// Metres, when the engine knows.
    public var distance: Double?
    /// Walk and car legs carry no dates by themselves; `schedule()` gives them times.
    public var departure: Date?
    public var arrival: Date?
    /// Walk and car only; transit legs may carry the rides' stop positions.
    public var geometry: [Coordinate]
    /// Transit only: the rides in order. Transfers are `rides.count - 1`.
    public var rides: [TransitRide]
    /// Transit only: the access walk, the walk of each change and the egress walk, in order,
    /// so the person knows where to go between the rides.
    public var walks: [TransitWalkStep]
    /// Transit only: walking the whole way arrives no later (depart-at) or can leave no
    /// earlier (arrive-by) than this journey, so the person should just walk.
    public var walkingIsNoSlower: Bool
    /// Transit: the cheapest combination of the feed's fares for the rides, or why it is unknown.
    /// Car: the estimate from the daemon's car cost, when one is set. Nil otherwise, and for legs
    /// computed before prices existed.
    public var price: PriceQuote?
    /// Whether the leg is step-free: set by the engines for walk and transit legs; nil for car and
    /// bike legs, and for legs computed before accessibility existed (shown as unknown).
    public var accessibility: LegAccessibility?

    public init(mode: TravelMode, expectedTravelTime: TimeInterval, distance: Double? = nil,
                departure: Date? = nil, arrival: Date? = nil,
                geometry: [Coordinate] = [], rides: [TransitRide] = [],
                walks: [TransitWalkStep] = [], walkingIsNoSlower: Bool = false, price: PriceQuote? = nil,
                accessibility: LegAccessibility? = nil) {
        self.mode = mode
        self.expectedTravelTime = expectedTravelTime
        self.distance = distance
        self.departure = departure
        self.arrival = arrival
        self.geometry = geometry
        self.rides = rides
        self.walks = walks
        self.walkingIsNoSlower = walkingIsNoSlower
        self.price = price
        self.accessibility = accessibility
    }

    /// Number of changes between vehicles; zero for walk and car.
    public var transfers: Int { max(0, rides.count - 1) }

    /// Trip identifiers of the rides, used to re-find a pinned departure.
    public var tripIDs: [String] { rides.compactMap(\.tripID) }
}
