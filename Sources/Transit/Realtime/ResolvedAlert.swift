import Foundation
import Planner

/// A GTFS-Realtime alert whose informed entities were found in the timetable, ready to be
/// attached to the rides it touches.
struct ResolvedAlert: Hashable, Sendable {
    /// One informed entity, in timetable indexes; every field set must match a ride.
    struct Target: Hashable, Sendable {
        var agencyID: String?
        var route: Int32?
        var routeType: Int?
        var directionID: Int?
        /// Global trip indexes (frequency runs of one trip_id are several), and the service day when given.
        var trips: [Int32]?
        var tripDay: Int?
        /// The stop, or a station's platforms.
        var stops: [Int32]?
        /// The GTFS feed (position) of a realtime feed tied to one: the ride's route must be of it.
        var feed: Int32?

        /// Names only stops (and perhaps their agency): it is about the stop as a whole.
        var isStopOnly: Bool { stops != nil && route == nil && routeType == nil && directionID == nil && trips == nil }
    }

    /// What a ride is, for matching: its timetable trip, day and stops, and its span in POSIX seconds.
    struct RideFacts {
        var trip: Int32
        var pattern: Int32
        var day: Int
        var boardStop: Int32
        var alightStop: Int32
        var departure: Int
        var arrival: Int
    }

    var alert: ServiceAlert
    var targets: [Target]
    var periods: [RealtimeAlert.ActivePeriod]

    var isNoService: Bool { alert.effect == "no_service" }

    /// Whether the alert is in force at some moment of `start...end` (POSIX seconds).
    func isActive(from start: Int, to end: Int) -> Bool {
        periods.isEmpty || periods.contains { period in
            (period.start.map { Int($0) <= end } ?? true) && (period.end.map { Int($0) >= start } ?? true)
        }
    }

    /// Whether some target matches the ride.
    func touches(_ ride: RideFacts, in tt: Timetable) -> Bool {
        let route = Int(tt.tripRoutes[Int(ride.trip)])
        return targets.contains { target in
            if let feed = target.feed, RealtimeTripIndex.feed(ofRoute: Int32(route), in: tt) != feed { return false }
            if let agency = target.agencyID, tt.routes[route].agencyID != agency { return false }
            if let r = target.route, Int(r) != route { return false }
            if let type = target.routeType, tt.routes[route].routeType != type { return false }
            if let direction = target.directionID, Int(tt.tripDirections[Int(ride.trip)]) != direction { return false }
            if let trips = target.trips, !trips.contains(ride.trip) { return false }
            if let day = target.tripDay, day != ride.day { return false }
            if let stops = target.stops, !stops.contains(ride.boardStop) && !stops.contains(ride.alightStop) { return false }
            return true
        }
    }

    // MARK: - Resolving

    /// The alert with its informed entities found in the timetable; nil when none is (`unknown_entity`).
    /// - parameter tie: the realtime feed's GTFS feed (`RealtimeFeed.gtfsFeed`): its entities are
    ///   looked for in that feed alone, and match only its rides. Nil: a stop_id several feeds
    ///   share is every feed's stop of that ID; a route_id several feeds share is the first feed's.
    /// - parameter now: POSIX seconds; the active period shown is the one in force then, or the first.
    static func resolve(_ alert: RealtimeAlert, tie: Int? = nil, timetable tt: Timetable, index: RealtimeTripIndex,
                        now: Int) -> ResolvedAlert? {
        let tied = tie != nil && !tt.fares.routeFeeds.isEmpty
        func ofTie(_ feed: Int32) -> Bool { !tied || Int(feed) == tie }
        func routeOfTie(_ route: Int) -> Bool { ofTie(RealtimeTripIndex.feed(ofRoute: Int32(route), in: tt)) }
        func routeInFeed(_ id: String) -> Int32? {
            tied ? (index.routesByID[id] ?? []).first { routeOfTie(Int($0)) } : index.routeByID[id]
        }
        func stopInFeed(_ stop: Int) -> Bool { ofTie(index.stopFeeds[stop]) }
        var targets: [Target] = []
        for selector in alert.informedEntities {
            var target = Target()
            if tied, let tie { target.feed = Int32(tie) }
            var known = true
            var namesSomething = false
            if let agency = selector.agencyID {
                namesSomething = true
                known = known && (tied ? tt.routes.indices.contains { tt.routes[$0].agencyID == agency && routeOfTie($0) }
                    : index.agencies.contains(agency))
                target.agencyID = agency
            }
            if let routeID = selector.routeID {
                namesSomething = true
                target.route = routeInFeed(routeID)
                known = known && target.route != nil
            }
            if let type = selector.routeType {
                namesSomething = true
                target.routeType = type
                known = known && tt.routes.indices.contains { tt.routes[$0].routeType == type && routeOfTie($0) }
            }
            target.directionID = selector.directionID
            if let trip = selector.trip {
                namesSomething = true
                if let tripID = trip.tripID {
                    let trips = index.trips.trips(withID: tripID).filter { ofTie(RealtimeTripIndex.feed(ofTrip: $0, in: tt)) }
                    target.trips = trips
                    known = known && !trips.isEmpty
                } else if let routeID = trip.routeID {
                    target.route = routeInFeed(routeID)
                    target.directionID = trip.directionID ?? target.directionID
                    known = known && target.route != nil
                } else {
                    known = false
                }
                if let date = trip.startDate { target.tripDay = RealtimeTripIndex.day(date: date) }
            }
            if let stopID = selector.stopID {
                namesSomething = true
                // Untied, every feed's stop of that ID: the alert is about the place, and which
                // feed's stop is meant cannot be told (tie the feed to narrow it to one).
                var stops = tt.stops.indices.filter { stopInFeed($0) && tt.stops[$0].id == stopID }.map(Int32.init)
                if stops.isEmpty {
                    stops = tt.stops.indices.filter { stopInFeed($0) && tt.stops[$0].parentStationID == stopID }.map(Int32.init)
                }
                target.stops = stops
                known = known && !stops.isEmpty
            }
            if known && namesSomething { targets.append(target) }
        }
        guard !targets.isEmpty else { return nil }
        let header = pick(alert.header), description = pick(alert.description, language: header?.language)
        let url = pick(alert.url, language: header?.language)
        let shown = alert.activePeriods.first {
            ($0.start.map { Int($0) <= now } ?? true) && ($0.end.map { Int($0) >= now } ?? true)
        } ?? alert.activePeriods.first
        let service = ServiceAlert(id: alert.entityID, header: header?.text ?? description?.text ?? "",
                                   description: header == nil ? nil : description?.text,
                                   language: header?.language ?? description?.language, url: url?.text,
                                   effect: alert.effect, cause: alert.cause == "unknown_cause" ? nil : alert.cause,
                                   activeFrom: shown?.start.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                                   activeUntil: shown?.end.map { Date(timeIntervalSince1970: TimeInterval($0)) })
        return ResolvedAlert(alert: service, targets: targets, periods: alert.activePeriods)
    }

    /// The feed's own text: the untranslated one (no language), else the one in `language`, else the first.
    static func pick(_ texts: [RealtimeTranslation], language: String? = nil) -> RealtimeTranslation? {
        texts.first { ($0.language ?? "").isEmpty } ?? texts.first { language != nil && $0.language == language } ?? texts.first
    }
}
