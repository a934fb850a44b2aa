import Foundation

/// Lookups from the identifiers a GTFS-Realtime feed uses to the timetable's indexes. Built
/// once per timetable (the first time realtime is applied), shared by every overlay after.
struct RealtimeTripIndex: Sendable {
    /// trip_id → global trip indexes (two feeds may share an id; frequency runs are "id@HH:MM:SS"),
    /// and each trip's pattern.
    let trips: TripLookup
    /// route_id → the first feed's route with it (how an alert of a feed tied to none reads it).
    let routeByID: [String: Int32]
    /// route_id → every feed's route with it, in feed order.
    let routesByID: [String: [Int32]]
    /// Per stop: the feed whose trips call there (stop IDs are only unique inside a feed); -1
    /// for a stop no trip calls at, or a timetable stored before routes recorded their feed.
    let stopFeeds: [Int32]
    /// (route, first departure) → trips: matching by route + direction + start time.
    let tripsByRouteStart: [RouteStart: [Int32]]
    /// agency_id of some route.
    let agencies: Set<String>

    struct RouteStart: Hashable, Sendable {
        var route: Int32
        var start: Int32
    }

    /// - parameter trips: the timetable's `TripLookup`, when one is made already.
    init(timetable tt: Timetable, trips: TripLookup? = nil) {
        var byRouteStart: [RouteStart: [Int32]] = [:]
        for pat in tt.patterns {
            for k in 0..<Int(pat.tripCount) {
                let trip = Int(pat.firstTrip) + k
                let first = tt.departures[Int(pat.timesStart) + k * Int(pat.stopCount)]
                byRouteStart[RouteStart(route: tt.tripRoutes[trip], start: first), default: []].append(Int32(trip))
            }
        }
        self.trips = trips ?? TripLookup(timetable: tt)
        tripsByRouteStart = byRouteStart
        var routes: [String: [Int32]] = [:]
        for (r, route) in tt.routes.enumerated() { routes[route.id, default: []].append(Int32(r)) }
        routesByID = routes
        routeByID = routes.compactMapValues(\.first)
        agencies = Set(tt.routes.map(\.agencyID).filter { !$0.isEmpty })
        // A trip calls only at its own feed's stops, so its route's feed is theirs.
        var feeds = [Int32](repeating: -1, count: tt.stops.count)
        for pat in tt.patterns where pat.tripCount > 0 {
            let feed = Self.feed(ofRoute: tt.tripRoutes[Int(pat.firstTrip)], in: tt)
            for s in Int(pat.stopsStart)..<Int(pat.stopsStart + pat.stopCount) { feeds[Int(tt.patternStops[s])] = feed }
        }
        stopFeeds = feeds
    }

    /// The position of the feed `route` came from, in import order; -1 for a timetable stored
    /// before routes recorded their feed.
    static func feed(ofRoute route: Int32, in tt: Timetable) -> Int32 {
        tt.fares.routeFeeds.indices.contains(Int(route)) ? tt.fares.routeFeeds[Int(route)] : -1
    }

    static func feed(ofTrip trip: Int32, in tt: Timetable) -> Int32 { feed(ofRoute: tt.tripRoutes[Int(trip)], in: tt) }

    /// Whether `feed` (a position, or -1 unknown) is one `tie` lets a realtime feed name: any
    /// without a tie; with one, only the tied feed, or any when the timetable recorded no feeds.
    static func admits(_ feed: Int32, tie: Int?, in tt: Timetable) -> Bool {
        guard let tie, !tt.fares.routeFeeds.isEmpty else { return true }
        return Int(feed) == tie
    }

    /// Seconds after the service day's reference of "HH:MM:SS" (hours may pass 24); nil when malformed.
    static func seconds(clock text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]),
              (0...47).contains(h), (0...59).contains(m), (0...59).contains(s) else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// The day number of "YYYYMMDD"; nil when malformed.
    static func day(date text: String) -> Int? {
        guard text.count == 8, text.allSatisfy(\.isASCII), let value = Int(text) else { return nil }
        return ServiceDate.dayNumber(year: value / 10_000, month: value / 100 % 100, day: value % 100)
    }
}
