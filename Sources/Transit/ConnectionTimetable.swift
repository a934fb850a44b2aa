import Foundation

/// The timetable of three service days flattened into elementary connections (one vehicle
/// from one stop to the next), sorted by departure: what a connection scan reads. It is the
/// benchmark's yardstick's input (`usefulmap-bench transit`), not something a query uses.
///
/// The model is the engine's: a connection may be boarded when `flags & boardsHere` (pickup
/// at its departure stop) and left when `flags & alightsThere` (drop-off at its arrival
/// stop); after leaving a vehicle a traveller changes at the stop after `changeSeconds`
/// (-1: not allowed) or walks one footpath.
public struct ConnectionTimetable: Sendable {
    public static let boardsHere: UInt8 = 1
    public static let alightsThere: UInt8 = 2

    public var stopCount: Int
    /// Per connection, structure of arrays, ascending `departures`; times are Unix seconds.
    public var departureStops: [Int32] = []
    public var arrivalStops: [Int32] = []
    public var departures: [Int] = []
    public var arrivals: [Int] = []
    /// The trip run (a trip on one service day) the connection belongs to, below `runCount`.
    public var runs: [Int32] = []
    public var flags: [UInt8] = []
    public var runCount = 0
    /// Per stop: seconds to change there, -1 where changing is forbidden.
    public var changeSeconds: [Int32] = []
    /// Footpaths as compressed rows: stop s walks to `footTargets[footStart[s]..<footStart[s + 1]]`
    /// in `footSeconds` (at the pace the view was made for).
    public var footStart: [Int32] = []
    public var footTargets: [Int32] = []
    public var footSeconds: [Int32] = []

    /// The connections of the running trips of `days`, footpaths timed as `engine` times them.
    init(timetable tt: Timetable, days: [Raptor.ServiceDay], engine: Raptor) {
        stopCount = tt.stops.count
        changeSeconds = tt.changeSeconds
        footStart = tt.footStart
        footTargets = tt.footTargets
        footSeconds = engine.outgoingHops.hops.map(\.seconds)  // in footpath edge order
        var rows: [(departure: Int, arrival: Int, from: Int32, to: Int32, run: Int32, index: Int, flags: UInt8)] = []
        for day in days {
            for (p, pattern) in tt.patterns.enumerated() where day.runningStart[p] < day.runningStart[p + 1] {
                let n = Int(pattern.stopCount), stopsBase = Int(pattern.stopsStart)
                for k in Int(day.runningStart[p])..<Int(day.runningStart[p + 1]) {
                    let times = Int(pattern.timesStart) + Int(day.running[k]) * n
                    let run = Int32(runCount)
                    runCount += 1
                    for i in 0..<max(0, n - 1) {
                        let boards = tt.patternFlags[stopsBase + i] & Timetable.canBoard != 0
                        let alights = tt.patternFlags[stopsBase + i + 1] & Timetable.canAlight != 0
                        rows.append((day.reference + Int(tt.departures[times + i]), day.reference + Int(tt.arrivals[times + i + 1]),
                                     tt.patternStops[stopsBase + i], tt.patternStops[stopsBase + i + 1], run, i,
                                     (boards ? Self.boardsHere : 0) | (alights ? Self.alightsThere : 0)))
                    }
                }
            }
        }
        // Ties keep a run's connections in their order, so a zero-minute hop is scanned before the next.
        rows.sort { ($0.departure, $0.arrival, $0.run, $0.index) < ($1.departure, $1.arrival, $1.run, $1.index) }
        departureStops = rows.map(\.from)
        arrivalStops = rows.map(\.to)
        departures = rows.map(\.departure)
        arrivals = rows.map(\.arrival)
        runs = rows.map(\.run)
        flags = rows.map(\.flags)
    }
}

/// One stop-to-stop query as the engine receives it: for comparing the engine with the
/// benchmark's yardstick on exactly the same input.
public struct EngineQuery: Sendable {
    /// Unix seconds: the departure asked for.
    public var time: Int
    /// Stops reached from the origin and the walk's seconds.
    public var access: [(stop: Int32, seconds: Int)]
    /// Stops the destination is reached from and the walk's seconds.
    public var egress: [(stop: Int32, seconds: Int)]
    /// Journeys arriving at or after `time + horizon` are not searched.
    public var horizon: Int
    /// The local service day of `time` (the connections to scan are those around it).
    public var day: Int
}
