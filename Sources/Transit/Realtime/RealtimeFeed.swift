import Foundation

/// One GTFS-Realtime `FeedMessage`, reduced to what the daemon applies: trip updates and
/// alerts (vehicle positions are counted and ignored). Decoded from protobuf by
/// `RealtimeFeed(decoding:)` and encoded back by `encoded()`; the overlay reads only these
/// values, never the generated C structures.
public struct RealtimeFeed: Hashable, Sendable {
    /// `header.timestamp`: when the producer made the feed; nil when missing.
    public var timestamp: Date?
    /// `header.incrementality` is DIFFERENTIAL (the daemon treats every feed as a full dataset
    /// and reports differential ones as refused).
    public var isDifferential: Bool
    public var tripUpdates: [RealtimeTripUpdate]
    public var alerts: [RealtimeAlert]
    /// Entities holding a vehicle position: read and ignored.
    public var vehiclePositionCount: Int
    /// The region's GTFS feed this feed belongs to (its position in import order, 0 for the
    /// first): its trip updates and alerts then name only that feed's trips, routes, stops and
    /// agencies. Nil: any feed's (an ID several feeds share is then `ambiguous_trip`). Not in the
    /// message: whoever polls the feed says it (`region set --realtime FEED=URL`).
    public var gtfsFeed: Int?

    public init(timestamp: Date?, isDifferential: Bool = false, tripUpdates: [RealtimeTripUpdate] = [],
                alerts: [RealtimeAlert] = [], vehiclePositionCount: Int = 0, gtfsFeed: Int? = nil) {
        self.gtfsFeed = gtfsFeed
        self.timestamp = timestamp
        self.isDifferential = isDifferential
        self.tripUpdates = tripUpdates
        self.alerts = alerts
        self.vehiclePositionCount = vehiclePositionCount
    }

    /// Whether `other` says what this feed says, whatever the time in its header: producers stamp
    /// every fetch anew, and the same trip updates and alerts lay the same overlay (trial 59 F6:
    /// every poll of an unchanged feed built an overlay and refreshed every plan of the day).
    public func saysTheSame(as other: RealtimeFeed?) -> Bool {
        guard var other else { return false }
        other.timestamp = timestamp
        return other == self
    }
}

/// `TripDescriptor`: which trip (and which day's run of it) an update or alert means.
public struct RealtimeTripDescriptor: Hashable, Sendable {
    public enum Relationship: String, Hashable, Sendable {
        case scheduled, added, unscheduled, canceled, replacement, duplicated, deleted, new
    }

    public var tripID: String?
    public var routeID: String?
    public var directionID: Int?
    /// "HH:MM:SS" as in the feed (may pass 24:00).
    public var startTime: String?
    /// "YYYYMMDD" as in the feed.
    public var startDate: String?
    public var relationship: Relationship

    public init(tripID: String? = nil, routeID: String? = nil, directionID: Int? = nil, startTime: String? = nil,
                startDate: String? = nil, relationship: Relationship = .scheduled) {
        self.tripID = tripID
        self.routeID = routeID
        self.directionID = directionID
        self.startTime = startTime
        self.startDate = startDate
        self.relationship = relationship
    }
}

/// `TripUpdate.StopTimeEvent`: a delay, an absolute time, or both.
public struct RealtimeStopTimeEvent: Hashable, Sendable {
    /// Seconds late (negative: early).
    public var delay: Int?
    /// POSIX seconds.
    public var time: Int64?
    public var uncertainty: Int?

    public init(delay: Int? = nil, time: Int64? = nil, uncertainty: Int? = nil) {
        self.delay = delay
        self.time = time
        self.uncertainty = uncertainty
    }
}

/// `TripUpdate.StopTimeUpdate`: one stop of the trip, by sequence or id.
public struct RealtimeStopTimeUpdate: Hashable, Sendable {
    public enum Relationship: String, Hashable, Sendable { case scheduled, skipped, noData = "no_data", unscheduled }

    public var stopSequence: Int?
    public var stopID: String?
    public var arrival: RealtimeStopTimeEvent?
    public var departure: RealtimeStopTimeEvent?
    public var relationship: Relationship

    public init(stopSequence: Int? = nil, stopID: String? = nil, arrival: RealtimeStopTimeEvent? = nil,
                departure: RealtimeStopTimeEvent? = nil, relationship: Relationship = .scheduled) {
        self.stopSequence = stopSequence
        self.stopID = stopID
        self.arrival = arrival
        self.departure = departure
        self.relationship = relationship
    }
}

/// `TripUpdate`: live times (or a cancellation) for one run of one trip.
public struct RealtimeTripUpdate: Hashable, Sendable {
    /// `FeedEntity.id`.
    public var entityID: String
    public var trip: RealtimeTripDescriptor
    public var stopTimeUpdates: [RealtimeStopTimeUpdate]
    /// `TripUpdate.delay`: a delay for the whole trip where no stop says otherwise.
    public var delay: Int?
    public var timestamp: Date?

    public init(entityID: String, trip: RealtimeTripDescriptor, stopTimeUpdates: [RealtimeStopTimeUpdate] = [],
                delay: Int? = nil, timestamp: Date? = nil) {
        self.entityID = entityID
        self.trip = trip
        self.stopTimeUpdates = stopTimeUpdates
        self.delay = delay
        self.timestamp = timestamp
    }
}

/// `TranslatedString.Translation`.
public struct RealtimeTranslation: Hashable, Sendable {
    public var text: String
    /// BCP-47; nil when the feed gives none.
    public var language: String?

    public init(text: String, language: String? = nil) {
        self.text = text
        self.language = language
    }
}

/// `EntitySelector`: what an alert touches. Every field set must match.
public struct RealtimeEntitySelector: Hashable, Sendable {
    public var agencyID: String?
    public var routeID: String?
    public var routeType: Int?
    public var directionID: Int?
    public var trip: RealtimeTripDescriptor?
    public var stopID: String?

    public init(agencyID: String? = nil, routeID: String? = nil, routeType: Int? = nil, directionID: Int? = nil,
                trip: RealtimeTripDescriptor? = nil, stopID: String? = nil) {
        self.agencyID = agencyID
        self.routeID = routeID
        self.routeType = routeType
        self.directionID = directionID
        self.trip = trip
        self.stopID = stopID
    }
}

/// `Alert`: a notice about service.
public struct RealtimeAlert: Hashable, Sendable {
    /// POSIX seconds; nil ends are open.
    public struct ActivePeriod: Hashable, Sendable {
        public var start: Int64?
        public var end: Int64?

        public init(start: Int64? = nil, end: Int64? = nil) {
            self.start = start
            self.end = end
        }
    }

    /// `FeedEntity.id`.
    public var entityID: String
    public var activePeriods: [ActivePeriod]
    public var informedEntities: [RealtimeEntitySelector]
    /// The enum's name in lower case: "construction", "unknown_cause", …
    public var cause: String
    /// The enum's name in lower case: "no_service", "detour", "unknown_effect", …
    public var effect: String
    public var url: [RealtimeTranslation]
    public var header: [RealtimeTranslation]
    public var description: [RealtimeTranslation]

    public init(entityID: String, activePeriods: [ActivePeriod] = [], informedEntities: [RealtimeEntitySelector] = [],
                cause: String = "unknown_cause", effect: String = "unknown_effect", url: [RealtimeTranslation] = [],
                header: [RealtimeTranslation] = [], description: [RealtimeTranslation] = []) {
        self.entityID = entityID
        self.activePeriods = activePeriods
        self.informedEntities = informedEntities
        self.cause = cause
        self.effect = effect
        self.url = url
        self.header = header
        self.description = description
    }
}
