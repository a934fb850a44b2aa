import Foundation

/// Lookups from the identifiers a GTFS-Realtime feed uses to the timetable's indexes. Built
/// once per timetable (the first time realtime is applied), shared by every overlay after.
struct RealtimeTripIndex: Sendable {
    /// trip_id → global trip indexes (two feeds may share an id; frequency runs are "id@HH:MM:SS").
    let tripsByID: [String: [Int32]]
    let routeByID: [String: Int32]
    /// Per global trip: its pattern, and its position within it.
    let tripPattern: [Int32]
    /// (route, first departure) → trips: matching by route + direction + start time.
    let tripsByRouteStart: [RouteStart: [Int32]]
    /// agency_id of some route.
    let agencies: Set<String>

    struct RouteStart: Hashable, Sendable {
        var route: Int32
        var start: Int32
    }

    init(timetable tt: Timetable) {
        var byID: [String: [Int32]] = [:]
        byID.reserveCapacity(tt.tripIDs.count)
        var pattern = [Int32](repeating: 0, count: tt.tripIDs.count)
        var byRouteStart: [RouteStart: [Int32]] = [:]
        for (p, pat) in tt.patterns.enumerated() {
            for k in 0..<Int(pat.tripCount) {
                let trip = Int(pat.firstTrip) + k
                byID[tt.tripIDs[trip], default: []].append(Int32(trip))
                pattern[trip] = Int32(p)
                let first = tt.departures[Int(pat.timesStart) + k * Int(pat.stopCount)]
                byRouteStart[RouteStart(route: tt.tripRoutes[trip], start: first), default: []].append(Int32(trip))
            }
        }
        tripsByID = byID
        tripPattern = pattern
        tripsByRouteStart = byRouteStart
        var routes: [String: Int32] = [:]
        for (r, route) in tt.routes.enumerated() where routes[route.id] == nil { routes[route.id] = Int32(r) }
        routeByID = routes
        agencies = Set(tt.routes.map(\.agencyID).filter { !$0.isEmpty })
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
