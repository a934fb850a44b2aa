import Foundation
import Planner

/// The tests' GTFS feed builder (its `files` go to `GTFSZip.write`): stops, routes, trips and
/// calls, with the optional files as text.
public struct MiniFeed {
    public var zone = "UTC"
    public var agencyName = "Test"
    public var stops: [(id: String, name: String, lat: Double, lon: Double)] = []
    public var routes: [(id: String, short: String, type: Int)] = []
    public var trips: [(route: String, service: String, id: String, headsign: String)] = []
    public var stopTimes: [(trip: String, arrival: String, departure: String, stop: String, sequence: Int)] = []
    public var calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,20220101,20221231\n"
    public var calendarDates: String? = nil
    public var frequencies: String? = nil
    public var transfers: String? = nil
    /// direction_id per trip_id; trips.txt has the column only when some trip has one.
    public var directions: [String: Int] = [:]
    /// zone_id per stop_id; stops.txt has the column only when some stop has one.
    public var zones: [String: String] = [:]
    /// More files as they are (fare_attributes.txt, fare_rules.txt, …).
    public var extraFiles: [String: String] = [:]

    public init() {}

    public var files: [String: String] {
        var files: [String: String] = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,\(agencyName),http://example.org,\(zone)\n",
            "stops.txt": zones.isEmpty
                ? "stop_id,stop_name,stop_lat,stop_lon\n" + stops.map { "\($0.id),\($0.name),\($0.lat),\($0.lon)\n" }.joined()
                : "stop_id,stop_name,stop_lat,stop_lon,zone_id\n"
                    + stops.map { "\($0.id),\($0.name),\($0.lat),\($0.lon),\(zones[$0.id] ?? "")\n" }.joined(),
            "routes.txt": "route_id,route_short_name,route_long_name,route_type\n" + routes.map { "\($0.id),\($0.short),,\($0.type)\n" }.joined(),
            "trips.txt": directions.isEmpty
                ? "route_id,service_id,trip_id,trip_headsign\n" + trips.map { "\($0.route),\($0.service),\($0.id),\($0.headsign)\n" }.joined()
                : "route_id,service_id,trip_id,trip_headsign,direction_id\n"
                    + trips.map { "\($0.route),\($0.service),\($0.id),\($0.headsign),\(directions[$0.id].map(String.init) ?? "")\n" }.joined(),
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + stopTimes.map { "\($0.trip),\($0.arrival),\($0.departure),\($0.stop),\($0.sequence)\n" }.joined(),
            "calendar.txt": calendar,
        ]
        if let calendarDates { files["calendar_dates.txt"] = calendarDates }
        if let frequencies { files["frequencies.txt"] = frequencies }
        if let transfers { files["transfers.txt"] = transfers }
        files.merge(extraFiles) { _, extra in extra }
        return files
    }

    /// Adds a stop `index` km north of (60.0, 25.0) — far enough apart that no footpath joins them.
    public mutating func stop(_ id: String, km: Double, east: Double = 0) {
        stops.append((id, "Stop \(id)", 60.0 + km / 111.195, 25.0 + east / 55.6))
    }

    /// Adds a trip calling at `calls` (stop, "HH:MM:SS").
    public mutating func trip(_ id: String, route: String, service: String = "ALL", headsign: String = "", _ calls: [(String, String)]) {
        trips.append((route, service, id, headsign))
        for (k, call) in calls.enumerated() {
            stopTimes.append((id, call.1, call.1, call.0, k + 1))
        }
    }

    public static func coordinate(km: Double, east: Double = 0) -> Coordinate {
        Coordinate(latitude: 60.0 + km / 111.195, longitude: 25.0 + east / 55.6)
    }
}
