import Foundation
import Planner

/// The whole timetable in compact arrays, as RAPTOR scans it.
///
/// Trips with the same stop sequence (`stop_sequence` numbers included) and pickup/drop-off
/// rules form a *pattern*, whatever their route: the rounds scan all trips on those stops at
/// once (the copies of a line laid over one another are one pattern, not one each). Inside a
/// pattern trips are sorted by departure and never overtake one another (the builder splits
/// patterns where they would), so "the earliest trip at stop i" is a binary search. Each trip
/// names its own route (`tripRoutes`). Times are seconds after the service day's reference instant ("noon minus 12 h").
struct Timetable: Sendable {
    struct Stop: Sendable, Hashable {
        var id: String
        var name: String
        var latitude: Double
        var longitude: Double
        var parentStationID: String?
        /// Bit per `VehicleKind` of the routes calling here.
        var modeMask: UInt32
        /// `wheelchair_boarding`, a platform's 0 already replaced by its station's
        /// (`AccessibilityValue`); unknown in a timetable stored before schema version 5.
        var wheelchairBoarding: UInt8 = AccessibilityValue.unknown

        var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
    }

    struct Route: Sendable, Hashable {
        var id: String
        var shortName: String
        var longName: String
        var routeType: Int
        /// The route's `agency_id` (the feed's only agency when routes.txt leaves it empty); ""
        /// when neither names one (a timetable stored before schema version 3).
        var agencyID: String = ""
    }

    /// The days one `service_id` runs, as a bitset starting at `firstDay`.
    struct Service: Sendable, Hashable {
        var id: String
        var firstDay: Int
        var words: [UInt64]

        func runs(on day: Int) -> Bool {
            let offset = day - firstDay
            guard offset >= 0, offset < words.count * 64 else { return false }
            return words[offset >> 6] & (1 << UInt64(offset & 63)) != 0
        }

        var dayCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
        var lastDay: Int? {
            for w in stride(from: words.count - 1, through: 0, by: -1) where words[w] != 0 {
                return firstDay + w * 64 + (63 - words[w].leadingZeroBitCount)
            }
            return nil
        }
        var firstActiveDay: Int? {
            for w in 0..<words.count where words[w] != 0 {
                return firstDay + w * 64 + words[w].trailingZeroBitCount
            }
            return nil
        }
    }

    struct Pattern: Sendable, Hashable {
        /// Range in `patternStops` / `patternFlags`.
        var stopsStart: Int32
        var stopCount: Int32
        /// First global trip index; trips of a pattern are contiguous.
        var firstTrip: Int32
        var tripCount: Int32
        /// Offset of this pattern's trip-major times in `arrivals` / `departures`.
        var timesStart: Int32
        /// Earliest and latest departure of any trip, to skip service days quickly.
        var minTime: Int32
        var maxTime: Int32
    }

    static let canBoard: UInt8 = 1
    static let canAlight: UInt8 = 2

    var timeZoneID: String
    var stops: [Stop] = []
    var routes: [Route] = []
    var services: [Service] = []
    var patterns: [Pattern] = []
    var patternStops: [Int32] = []
    var patternFlags: [UInt8] = []
    /// GTFS `stop_sequence` of each pattern stop, parallel to `patternStops` (trips numbering
    /// their stops differently never share a pattern); realtime updates name stops by it.
    var patternSequences: [Int32] = []
    var tripIDs: [String] = []
    /// Per trip: its route (patterns mix routes that share a stop sequence).
    var tripRoutes: [Int32] = []
    var tripHeadsigns: [String] = []
    var tripServices: [Int32] = []
    /// Per trip: the headway of a run of headway-based service (`exact_times=0`), whose times
    /// are only an estimate; 0 for scheduled trips.
    var tripHeadways: [Int32] = []
    /// Per trip: GTFS `direction_id` (0 or 1), -1 when the feed gives none.
    var tripDirections: [Int8] = []
    /// Per trip: GTFS `wheelchair_accessible` (`AccessibilityValue`); unknown before schema version 5.
    var tripWheelchair: [UInt8] = []
    var arrivals: [Int32] = []
    var departures: [Int32] = []
    /// Same-stop change time per stop; -1 when transfers.txt forbids changing there.
    var changeSeconds: [Int32] = []
    /// Footpaths as compressed rows: stop s walks to `footTargets[footStart[s]..<footStart[s+1]]`.
    var footStart: [Int32] = []
    var footTargets: [Int32] = []
    /// Normal-pace walking seconds and the transfers.txt minimum (0 when none) per footpath.
    var footWalkSeconds: [Int32] = []
    var footMinimumSeconds: [Int32] = []
    /// Metres along the streets per footpath (what a change walk shows); -1 when the import
    /// could only estimate its time as a straight line (the straight distance is shown).
    var footWalkMetres: [Int32] = []
    var feeds: [FeedServicePeriod] = []
    /// Shapes and colours for drawing rides: written at import, not loaded with the timetable
    /// (RAPTOR never needs them; `RideShapes` reads them when a ride is drawn).
    var rideShapes = RideShapeTable()
    /// GTFS Fares v1, resolved to stop and route indexes; empty (`isRead` false) for a timetable
    /// stored before fares were read.
    var fares = FareTable() {
        didSet { fareUnits = FarePriceUnits(fares.fares) }
    }
    /// The fares' prices as integers, where every one is exact in millionths (derived from `fares`).
    private(set) var fareUnits = FarePriceUnits([])

    // MARK: - Derived at load (not stored)

    /// For each stop, (pattern, index of the stop in the pattern) pairs.
    var stopPatternStart: [Int32] = []
    var stopPatternEntries: [Int32] = []
    var stopPatternIndexes: [Int32] = []
    /// Incoming footpaths (for the reverse search).
    var footInStart: [Int32] = []
    var footInSources: [Int32] = []
    var footInEdge: [Int32] = []
    var stopIndexByID: [String: Int32] = [:]

    init(timeZoneID: String) {
        self.timeZoneID = timeZoneID
    }

    var timeZone: TimeZone { ServiceDate.zone(named: timeZoneID) }

    var stopTimeCount: Int { arrivals.count }

    /// Fills the derived indexes; called after building or loading.
    mutating func buildIndexes() {
        let n = stops.count
        (stopPatternStart, stopPatternEntries, stopPatternIndexes) =
            PatternTable.stopIndex(patterns: patterns, patternStops: patternStops, stopCount: n)
        var inCounts = [Int32](repeating: 0, count: n + 1)
        for t in footTargets { inCounts[Int(t)] += 1 }
        footInStart = [Int32](repeating: 0, count: n + 1)
        for s in 0..<n { footInStart[s + 1] = footInStart[s] + inCounts[s] }
        var inFill = Array(footInStart.dropLast())
        footInSources = [Int32](repeating: 0, count: footTargets.count)
        footInEdge = footInSources
        if n > 0 {
            for s in 0..<n {
                for e in Int(footStart[s])..<Int(footStart[s + 1]) {
                    let t = Int(footTargets[e])
                    footInSources[Int(inFill[t])] = Int32(s)
                    footInEdge[Int(inFill[t])] = Int32(e)
                    inFill[t] += 1
                }
            }
        }
        stopIndexByID = [:]
        for (i, s) in stops.enumerated() { stopIndexByID[s.id] = Int32(i) }
    }

    /// Bytes held by the arrays (strings counted by their UTF-8 length), for the memory report.
    var memoryBytes: Int {
        func a<T>(_ array: [T]) -> Int { array.count * MemoryLayout<T>.stride }
        var total = a(patternStops) + a(patternFlags) + a(patternSequences) + a(tripDirections) + a(tripWheelchair) + a(tripRoutes) + a(tripServices) + a(tripHeadways) + a(arrivals) + a(departures)
        total += a(changeSeconds) + a(footStart) + a(footTargets) + a(footWalkSeconds) + a(footMinimumSeconds) + a(footWalkMetres)
        total += a(stopPatternStart) + a(stopPatternEntries) + a(stopPatternIndexes)
        total += a(footInStart) + a(footInSources) + a(footInEdge)
        total += a(patterns) + a(stops) + a(routes) + a(tripIDs) + a(tripHeadsigns)
        total += services.reduce(0) { $0 + MemoryLayout<Service>.stride + $1.words.count * 8 }
        total += tripIDs.reduce(0) { $0 + ($1.utf8.count > 15 ? $1.utf8.count : 0) }
        total += tripHeadsigns.reduce(0) { $0 + ($1.utf8.count > 15 ? $1.utf8.count : 0) }
        total += stops.reduce(0) { $0 + $1.name.utf8.count + $1.id.utf8.count }
        total += stopIndexByID.count * (MemoryLayout<String>.stride + 8) * 2
        return total
    }

    /// Whether any feed has service on `day`, counting the day after a feed's last day
    /// (its trips may run past midnight, "25:10:00").
    func isInServicePeriod(day: Int) -> Bool {
        feeds.contains { day >= $0.firstDay && day <= $0.lastDay + 1 }
    }
}

/// GTFS `route_type` → the vehicle word used in `TransitRide.vehicle`, basic and extended types.
enum VehicleKind {
    static let names = ["tram", "subway", "rail", "bus", "ferry", "cable_tram", "aerial_lift",
                        "funicular", "trolleybus", "monorail", "coach", "other"]

    static func index(routeType: Int) -> Int {
        switch routeType {
        case 12, 405: 9
        case 0, 900...999: 0
        case 1, 400...499: 1
        case 2, 100...199, 300...399: 2
        case 3, 700...799: 3
        case 4, 1000...1099, 1200...1299: 4
        case 5: 5
        case 6, 1300...1399: 6
        case 7, 1400...1499: 7
        case 11, 800...899: 8
        case 200...299: 10
        default: 11
        }
    }

    static func name(routeType: Int) -> String { names[index(routeType: routeType)] }

    static func names(mask: UInt32) -> [String] {
        names.indices.filter { mask & (1 << UInt32($0)) != 0 }.map { names[$0] }.sorted()
    }
}
