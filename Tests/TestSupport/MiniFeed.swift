import Foundation
import Planner

/// The tests' one GTFS feed builder (its `files` go to `GTFSZip.write`): stops, routes, trips,
/// calls and shapes, with the optional files as text. An optional column is written only when
/// some row has a value for it, so a feed that leaves it out reads as one without it.
public struct MiniFeed {
    public var zone = "UTC"
    public var agencyName = "Test"
    public var agencyURL = "http://example.org"
    public var stops: [(id: String, name: String, lat: Double, lon: Double)] = []
    public var routes: [(id: String, short: String, type: Int)] = []
    public var trips: [(route: String, service: String, id: String, headsign: String)] = []
    public var stopTimes: [(trip: String, arrival: String, departure: String, stop: String, sequence: Int)] = []
    /// calendar.txt as it is; an empty text leaves the file out (a feed of calendar_dates.txt only).
    public var calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,20220101,20221231\n"
    public var calendarDates: String? = nil
    public var frequencies: String? = nil
    public var transfers: String? = nil
    /// direction_id per trip_id.
    public var directions: [String: Int] = [:]
    /// zone_id per stop_id.
    public var zones: [String: String] = [:]
    /// location_type per stop_id (1 a station, 2 an entrance, …).
    public var locationTypes: [String: Int] = [:]
    /// parent_station per stop_id.
    public var parentStations: [String: String] = [:]
    /// wheelchair_boarding per stop_id (0 unknown, 1 yes, 2 no; any other number is bad input).
    public var wheelchairBoarding: [String: Int] = [:]
    /// route_color per route_id (six hex digits).
    public var routeColors: [String: String] = [:]
    /// shape_id per trip_id.
    public var tripShapes: [String: String] = [:]
    /// wheelchair_accessible per trip_id (0 unknown, 1 yes, 2 no).
    public var wheelchairAccessible: [String: Int] = [:]
    /// pickup_type and drop_off_type per call (trip_id, stop_sequence).
    public var pickupTypes: [Call: Int] = [:]
    public var dropOffTypes: [Call: Int] = [:]
    /// shapes.txt; the file is written when there is a point.
    public var shapePoints: [(shape: String, lat: Double, lon: Double, sequence: Int)] = []
    /// Rows appended to a file as they are, after its own rows: bad input a test wants read.
    public var extraRows: [String: String] = [:]
    /// More files as they are (fare_attributes.txt, fare_rules.txt, …).
    public var extraFiles: [String: String] = [:]

    /// One call of a trip, as stop_times.txt names it.
    public struct Call: Hashable {
        public var trip: String
        public var sequence: Int
        public init(trip: String, sequence: Int) {
            self.trip = trip
            self.sequence = sequence
        }
    }

    public init() {}

    public var files: [String: String] {
        var files: [String: String] = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,\(agencyName),\(agencyURL),\(zone)\n",
            "stops.txt": Self.table(stops, [
                ("stop_id", { $0.id }), ("stop_name", { $0.name }), ("stop_lat", { "\($0.lat)" }), ("stop_lon", { "\($0.lon)" }),
            ], optional: [
                ("zone_id", { zones[$0.id] }), ("location_type", { locationTypes[$0.id].map(String.init) }),
                ("parent_station", { parentStations[$0.id] }), ("wheelchair_boarding", { wheelchairBoarding[$0.id].map(String.init) }),
            ]),
            "routes.txt": Self.table(routes, [
                ("route_id", { $0.id }), ("route_short_name", { $0.short }), ("route_long_name", { _ in "" }), ("route_type", { "\($0.type)" }),
            ], optional: [("route_color", { routeColors[$0.id] })]),
            "trips.txt": Self.table(trips, [
                ("route_id", { $0.route }), ("service_id", { $0.service }), ("trip_id", { $0.id }), ("trip_headsign", { $0.headsign }),
            ], optional: [
                ("direction_id", { directions[$0.id].map(String.init) }), ("shape_id", { tripShapes[$0.id] }),
                ("wheelchair_accessible", { wheelchairAccessible[$0.id].map(String.init) }),
            ]),
            "stop_times.txt": Self.table(stopTimes, [
                ("trip_id", { $0.trip }), ("arrival_time", { $0.arrival }), ("departure_time", { $0.departure }),
                ("stop_id", { $0.stop }), ("stop_sequence", { "\($0.sequence)" }),
            ], optional: [
                ("pickup_type", { pickupTypes[Call(trip: $0.trip, sequence: $0.sequence)].map(String.init) }),
                ("drop_off_type", { dropOffTypes[Call(trip: $0.trip, sequence: $0.sequence)].map(String.init) }),
            ]),
        ]
        if !calendar.isEmpty { files["calendar.txt"] = calendar }
        if !shapePoints.isEmpty {
            files["shapes.txt"] = Self.table(shapePoints, [
                ("shape_id", { $0.shape }), ("shape_pt_lat", { "\($0.lat)" }), ("shape_pt_lon", { "\($0.lon)" }),
                ("shape_pt_sequence", { "\($0.sequence)" }),
            ], optional: [])
        }
        if let calendarDates { files["calendar_dates.txt"] = calendarDates }
        if let frequencies { files["frequencies.txt"] = frequencies }
        if let transfers { files["transfers.txt"] = transfers }
        for (file, rows) in extraRows { files[file, default: ""] += rows }
        files.merge(extraFiles) { _, extra in extra }
        return files
    }

    /// A CSV table of `rows`: the `columns` always, each `optional` column when some row has a
    /// value for it (the others' cells empty).
    private static func table<Row>(_ rows: [Row], _ columns: [(String, (Row) -> String)],
                                   optional: [(String, (Row) -> String?)]) -> String {
        let present = optional.filter { column in rows.contains { column.1($0) != nil } }
        let header = (columns.map(\.0) + present.map(\.0)).joined(separator: ",") + "\n"
        return header + rows.map { row in
            (columns.map { $0.1(row) } + present.map { $0.1(row) ?? "" }).joined(separator: ",") + "\n"
        }.joined()
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
