import Foundation
import Planner

/// Collects stops, routes, services and trips from one or more feeds, then groups trips
/// into overtaking-free patterns and computes footpaths to produce a `Timetable`.
struct TimetableBuilder {
    struct RawTrip {
        var route: Int32
        var service: Int32
        var tripID: String
        var headsign: String
        var stops: [Int32]
        var flags: [UInt8]
        var sequences: [Int32]
        var arrivals: [Int32]
        var departures: [Int32]
        /// 0 for a scheduled trip.
        var headwaySeconds: Int32
        var direction: Int8
        var wheelchair: UInt8
    }

    /// What trips sharing a pattern have in common: not the route (the rounds scan every
    /// trip on the same stops together; each trip keeps its route).
    private struct PatternKey: Hashable {
        var stops: [Int32]
        var flags: [UInt8]
        var sequences: [Int32]
    }

    struct TransferRule {
        var minimumSeconds: Int?
        var forbidden: Bool
    }

    var timeZoneID: String?
    var stops: [Timetable.Stop] = []
    /// Per stop, the feed it came from (1 for the first): stop ids are only unique inside it.
    var stopFeeds: [Int] = []
    var routes: [Timetable.Route] = []
    var services: [Timetable.Service] = []
    var trips: [RawTrip] = []
    var transfers: [Int64: TransferRule] = [:]
    var feeds: [FeedServicePeriod] = []
    /// Feeds begun so far (`adopt`): IDs are only unique inside their feed.
    private(set) var feedsBegun = 0
    /// Each platform's station, qualified by its feed (two feeds may both have a station "1").
    var stationOfStop: [Int32: String] = [:]
    /// For drawing rides only; passed through to storage.
    var rideShapes = RideShapeTable()
    /// Zones, fares and their rules (`GTFSFeedReader.readFares`); kept parallel to stops and routes.
    var fares = FareTable()

    /// Every feed must agree on one time zone: service days are computed in it.
    mutating func adopt(timeZone: String, feed: String) throws {
        if let existing = timeZoneID, existing != timeZone {
            throw TransitError.mixedTimeZones(["\(timeZoneFeed ?? "?"): \(existing)", "\(feed): \(timeZone)"])
        }
        timeZoneID = timeZone
        timeZoneFeed = feed
        feedsBegun += 1
    }
    /// The feed that set `timeZoneID`, to name both sides of a disagreement.
    var timeZoneFeed: String?

    /// - parameter wheelchairBoarding: the stop's own `wheelchair_boarding` (`AccessibilityValue`).
    mutating func addStop(id: String, name: String, latitude: Double, longitude: Double,
                          wheelchairBoarding: UInt8 = AccessibilityValue.unknown) -> Int32 {
        stops.append(Timetable.Stop(id: id, name: name, latitude: latitude, longitude: longitude, parentStationID: nil, modeMask: 0,
                                    wheelchairBoarding: wheelchairBoarding))
        stopFeeds.append(feedsBegun)
        fares.stopZones.append(-1)
        return Int32(stops.count - 1)
    }

    /// Links a platform to its station, a `parent_station` of the feed being read. A platform
    /// whose own `wheelchair_boarding` is 0 or empty takes the station's, as the GTFS reference says.
    mutating func setParent(stop: Int32, parent: String, stationWheelchairBoarding: UInt8 = AccessibilityValue.unknown) {
        stops[Int(stop)].parentStationID = parent
        if stops[Int(stop)].wheelchairBoarding == AccessibilityValue.unknown {
            stops[Int(stop)].wheelchairBoarding = stationWheelchairBoarding
        }
        stationOfStop[stop] = "\(feedsBegun)/\(parent)"
    }

    mutating func addRoute(id: String, shortName: String, longName: String, routeType: Int, agencyID: String = "") -> Int32 {
        routes.append(Timetable.Route(id: id, shortName: shortName, longName: longName, routeType: routeType, agencyID: agencyID))
        fares.routeFeeds.append(Int32(fares.feeds.count))
        return Int32(routes.count - 1)
    }

    /// Adds the services trips use; returns service_id → index. Services that never run are left out.
    mutating func addServices(_ calendar: ServiceCalendar, usedBy ids: Set<String>) -> [String: Int32] {
        var index: [String: Int32] = [:]
        for id in ids.sorted() {
            guard let service = calendar.service(id) else { continue }
            services.append(service)
            index[id] = Int32(services.count - 1)
        }
        return index
    }

    /// - parameter headwaySeconds: for a run of headway-based service (`exact_times=0`), its
    ///   headway; nil for scheduled trips.
    /// - parameter sequences: each stop's `stop_sequence`; nil numbers them 1, 2, 3, …
    /// - parameter direction: `direction_id`, nil when the feed gives none.
    /// - parameter wheelchair: `wheelchair_accessible` (`AccessibilityValue`).
    mutating func addTrip(route: Int32, service: Int32, tripID: String, headsign: String,
                          stops: [Int32], flags: [UInt8], arrivals: [Int32], departures: [Int32],
                          headwaySeconds: Int32? = nil, sequences: [Int32]? = nil, direction: Int? = nil,
                          wheelchair: UInt8 = AccessibilityValue.unknown) {
        trips.append(RawTrip(route: route, service: service, tripID: tripID, headsign: headsign,
                             stops: stops, flags: flags, sequences: sequences ?? stops.indices.map { Int32($0 + 1) },
                             arrivals: arrivals, departures: departures,
                             headwaySeconds: headwaySeconds ?? 0, direction: Int8(direction ?? -1), wheelchair: wheelchair))
    }

    mutating func addTransfer(from: Int32, to: Int32, minimumSeconds: Int?, forbidden: Bool) {
        transfers[Int64(from) << 32 | Int64(to)] = TransferRule(minimumSeconds: minimumSeconds, forbidden: forbidden)
    }

    /// Groups trips into patterns and computes footpaths.
    /// - parameter footpathRadius: metres; stops closer than this get a footpath.
    /// - parameter defaultChangeSeconds: same-stop change time, and the minimum of any
    ///   footpath, when transfers.txt says nothing.
    /// - parameter checkMemory: called as footpath candidates pile up (stops packed close
    ///   together give a number growing with the square of their count); throws to stop.
    /// - returns: the timetable, and how many footpaths were timed along the streets or as a straight line.
    func build(footpathRadius: Double, defaultChangeSeconds: Int, walking: any WalkingTimeEstimator,
               checkMemory: () throws -> Void = {}) throws
        -> (Timetable, FootpathCounts) {
        var table = Timetable(timeZoneID: timeZoneID ?? "UTC")
        table.stops = stops
        table.routes = routes
        table.services = services
        table.feeds = feeds
        table.rideShapes = rideShapes
        table.fares = fares

        var groups: [PatternKey: [Int]] = [:]
        var keys: [PatternKey] = []
        for (i, trip) in trips.enumerated() {
            let key = PatternKey(stops: trip.stops, flags: trip.flags, sequences: trip.sequences)
            if groups[key] == nil { keys.append(key) }
            groups[key, default: []].append(i)
        }
        for key in keys {
            let members = (groups[key] ?? []).sorted { a, b in
                let ta = trips[a], tb = trips[b]
                if ta.departures[0] != tb.departures[0] { return ta.departures[0] < tb.departures[0] }
                if ta.arrivals.last != tb.arrivals.last { return (ta.arrivals.last ?? 0) < (tb.arrivals.last ?? 0) }
                return ta.tripID < tb.tripID
            }
            // Split so that no trip overtakes another within a pattern.
            var lanes: [[Int]] = []
            for member in members {
                let trip = trips[member]
                if let lane = lanes.firstIndex(where: { lane in
                    guard let last = lane.last else { return true }
                    let prior = trips[last]
                    // The last arrival first: a trip that overtakes usually arrives first too, and
                    // patterns of many routes have many lanes to try.
                    return prior.arrivals[prior.arrivals.count - 1] <= trip.arrivals[trip.arrivals.count - 1]
                        && zip(prior.arrivals, trip.arrivals).allSatisfy { $0 <= $1 }
                        && zip(prior.departures, trip.departures).allSatisfy { $0 <= $1 }
                }) {
                    lanes[lane].append(member)
                } else {
                    lanes.append([member])
                }
            }
            for lane in lanes {
                var pattern = Timetable.Pattern(stopsStart: Int32(table.patternStops.count),
                                                stopCount: Int32(key.stops.count), firstTrip: Int32(table.tripIDs.count),
                                                tripCount: Int32(lane.count), timesStart: Int32(table.arrivals.count),
                                                minTime: .max, maxTime: .min)
                table.patternStops.append(contentsOf: key.stops)
                table.patternFlags.append(contentsOf: key.flags)
                table.patternSequences.append(contentsOf: key.sequences)
                var modes: UInt32 = 0
                for member in lane {
                    let trip = trips[member]
                    modes |= UInt32(1) << UInt32(VehicleKind.index(routeType: routes[Int(trip.route)].routeType))
                    table.tripIDs.append(trip.tripID)
                    table.tripRoutes.append(trip.route)
                    table.tripHeadsigns.append(trip.headsign)
                    table.tripServices.append(trip.service)
                    table.tripHeadways.append(trip.headwaySeconds)
                    table.tripDirections.append(trip.direction)
                    table.tripWheelchair.append(trip.wheelchair)
                    table.arrivals.append(contentsOf: trip.arrivals)
                    table.departures.append(contentsOf: trip.departures)
                    pattern.minTime = min(pattern.minTime, trip.departures[0])
                    pattern.maxTime = max(pattern.maxTime, trip.arrivals[trip.arrivals.count - 1])
                }
                table.patterns.append(pattern)
                for s in key.stops { table.stops[Int(s)].modeMask |= modes }
            }
        }

        // Same-stop change times.
        table.changeSeconds = [Int32](repeating: Int32(defaultChangeSeconds), count: stops.count)
        for (pair, rule) in transfers where pair >> 32 == pair & 0xFFFF_FFFF {
            let s = Int(pair & 0xFFFF_FFFF)
            table.changeSeconds[s] = rule.forbidden ? -1 : Int32(rule.minimumSeconds ?? defaultChangeSeconds)
        }

        // Footpaths: stops within the radius, stops of one station, and transfers.txt pairs.
        let grid = StopGrid(stops: stops.map(\.coordinate), cellMetres: max(footpathRadius, 50))
        var stationMembers: [String: [Int32]] = [:]
        for (stop, station) in stationOfStop { stationMembers[station, default: []].append(stop) }
        var transferTargets: [Int32: [Int32]] = [:]
        for (pair, rule) in transfers where !rule.forbidden {
            transferTargets[Int32(pair >> 32), default: []].append(Int32(pair & 0xFFFF_FFFF))
        }
        // Every candidate first, then one batch to the estimator (a street-backed one routes
        // them in parallel); a pair it cannot answer is timed as a straight line instead.
        var candidates: [(from: Int32, to: Int32, minimum: Int32)] = []
        var perStop = [Int](repeating: 0, count: stops.count)
        var nextMemoryCheck = 1 << 16
        for (s, stop) in stops.enumerated() {
            if candidates.count >= nextMemoryCheck {
                try checkMemory()
                nextMemoryCheck = candidates.count + (1 << 16)
            }
            var targets = Set(grid.stops(within: footpathRadius, of: stop.coordinate).map { Int32($0.index) })
            if let station = stationOfStop[Int32(s)] { targets.formUnion(stationMembers[station] ?? []) }
            targets.formUnion(transferTargets[Int32(s)] ?? [])
            targets.remove(Int32(s))
            for t in targets.sorted() {
                let rule = transfers[Int64(s) << 32 | Int64(t)]
                if rule?.forbidden == true { continue }
                candidates.append((Int32(s), t, Int32(rule.map { $0.minimumSeconds ?? defaultChangeSeconds } ?? defaultChangeSeconds)))
                perStop[s] += 1
            }
        }
        let pairs = candidates.map { (from: stops[Int($0.from)].coordinate, to: stops[Int($0.to)].coordinate) }
        try checkMemory()
        let estimates = try walking.walkingSeconds(pairs: pairs, pace: .normal)
        let fallback = StraightLineWalking()
        let streetMetresPerSecond = walking.followsStreets ? walking.normalPaceMetresPerSecond : nil
        var counts = FootpathCounts()
        var next = 0
        table.footStart = [0]
        for s in stops.indices {
            for _ in 0..<perStop[s] {
                defer { next += 1 }
                let candidate = candidates[next]
                var walk = next < estimates.count ? estimates[next] : nil
                var alongStreets = walking.followsStreets
                if walk.map({ !$0.isFinite || $0 < 0 }) ?? true {
                    walk = fallback.walkingSeconds(from: pairs[next].from, to: pairs[next].to, pace: .normal)
                    alongStreets = false
                }
                guard let walk, walk.isFinite, walk >= 0 else { continue }
                if alongStreets { counts.streetTimed += 1 } else { counts.straightLine += 1 }
                table.footTargets.append(candidate.to)
                table.footWalkSeconds.append(Int32(min(walk.rounded(.up), 86_400)))
                table.footMinimumSeconds.append(candidate.minimum)
                let metres = alongStreets ? streetMetresPerSecond.map { walk * $0 } : nil
                table.footWalkMetres.append(metres.map { Int32(min($0.rounded(), 1_000_000)) } ?? -1)
            }
            table.footStart.append(Int32(table.footTargets.count))
        }
        try checkMemory()
        table.buildIndexes()
        return (table, counts)
    }

    struct FootpathCounts {
        var streetTimed = 0
        var straightLine = 0
    }
}
