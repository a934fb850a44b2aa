import Foundation

extension RealtimeOverlay {
    /// Builds the overlay of `feeds` on `timetable`, as seen at `now`; the timetable is not changed.
    ///
    /// A trip update applies whole or not at all: a refused one is counted by reason in the
    /// report. When two updates give the same run of a trip, the first wins.
    static func build(timetable tt: Timetable, index: RealtimeTripIndex, feeds: [RealtimeFeed],
                      now: Date) -> (RealtimeOverlay, RealtimeApplyReport) {
        let nowSeconds = Int(now.timeIntervalSince1970.rounded(.down))
        var references: [Int: Int] = [:]
        func reference(_ day: Int) -> Int {
            if let known = references[day] { return known }
            let value = ServiceDate.referenceInstant(day, in: tt.timeZone)
            references[day] = value
            return value
        }
        var report = RealtimeApplyReport()
        var live: [Run: LiveTripTimes] = [:]
        var order: [Run] = []
        var cancelled: Set<Run> = []
        var alerts: [ResolvedAlert] = []
        var heldAlerts: Set<ResolvedAlert> = []
        for feed in feeds {
            var counts = RealtimeApplyReport.Feed()
            counts.vehiclePositionsIgnored = feed.vehiclePositionCount
            if feed.isDifferential {
                counts.tripUpdatesRefused = feed.tripUpdates.isEmpty ? [:] : [RealtimeRefusal.differentialFeed.rawValue: feed.tripUpdates.count]
                counts.alertsRefused = feed.alerts.isEmpty ? [:] : [RealtimeRefusal.differentialFeed.rawValue: feed.alerts.count]
                report.feeds.append(counts)
                continue
            }
            for update in feed.tripUpdates {
                switch update.trip.relationship {
                case .scheduled, .canceled, .deleted: break
                case .added, .new, .replacement, .duplicated, .unscheduled:
                    counts.refuseTripUpdate(.unsupported)
                    continue
                }
                let run: Run
                switch match(update.trip, tie: feed.gtfsFeed, timetable: tt, index: index, now: nowSeconds, reference: reference) {
                case .success(let matched): run = matched
                case .failure(let reason):
                    counts.refuseTripUpdate(reason)
                    continue
                }
                if live[run] != nil || cancelled.contains(run) {
                    counts.refuseTripUpdate(.duplicateTrip)
                    continue
                }
                if update.trip.relationship != .scheduled {
                    cancelled.insert(run)
                    counts.tripsCancelled += 1
                    continue
                }
                let pattern = tt.patterns[Int(index.trips.tripPattern[Int(run.trip)])]
                let n = Int(pattern.stopCount)
                let times = Int(pattern.timesStart) + (Int(run.trip) - Int(pattern.firstTrip)) * n
                let stops = Int(pattern.stopsStart)..<Int(pattern.stopsStart) + n
                let result = LiveTripTimes.apply(update, scheduledArrivals: tt.arrivals[times..<times + n],
                                                 scheduledDepartures: tt.departures[times..<times + n],
                                                 sequences: tt.patternSequences[stops], stops: tt.patternStops[stops],
                                                 stopTable: tt.stops, reference: reference(Int(run.day)))
                switch result {
                case .success(let times):
                    live[run] = times
                    order.append(run)
                    counts.tripUpdatesApplied += 1
                case .failure(let reason):
                    counts.refuseTripUpdate(reason)
                }
            }
            for alert in feed.alerts {
                if let resolved = ResolvedAlert.resolve(alert, tie: feed.gtfsFeed, timetable: tt, index: index, now: nowSeconds) {
                    // The same notice on the same targets (another feed's copy, another entity id) is held once.
                    var key = resolved
                    key.alert.id = ""
                    if heldAlerts.insert(key).inserted { alerts.append(resolved) }
                    counts.alertsApplied += 1
                } else {
                    counts.refuseAlert(.unknownEntity)
                }
            }
            report.feeds.append(counts)
        }
        var overlay = RealtimeOverlay()
        overlay.alerts = alerts
        overlay.cancelled = cancelled
        overlay.addPatterns(of: order.map { ($0, live[$0]!) }, timetable: tt, index: index)
        var replaced: [Int: Set<Int32>] = [:]
        for run in cancelled.union(order) { replaced[Int(run.day), default: []].insert(run.trip) }
        for (day, trips) in replaced {
            overlay.serviceDays[day] = Raptor.ServiceDay(day: day, timetable: tt, excluding: trips)
        }
        report.overlayMemoryBytes = overlay.memoryBytes
        return (overlay, report)
    }

    /// The run a trip descriptor means: by trip_id (a frequency run by its start time too), or by
    /// route + direction + start time; on `start_date`, or else the day whose run is nearest `now`.
    /// With `tie` (the feed's `gtfsFeed`), only that GTFS feed's trips are looked at. When the
    /// trips it fits come from more than one feed (feeds of a region may share trip IDs, route
    /// IDs and start times), it is `ambiguousTrip`: refused, never applied to a guess.
    static func match(_ trip: RealtimeTripDescriptor, tie: Int? = nil, timetable tt: Timetable, index: RealtimeTripIndex,
                      now: Int, reference: (Int) -> Int) -> Result<Run, RealtimeRefusal> {
        let start = trip.startTime.flatMap(RealtimeTripIndex.seconds(clock:))
        if trip.startTime != nil && start == nil { return .failure(.unknownTrip) }
        func firstDeparture(_ t: Int32) -> Int {
            let p = tt.patterns[Int(index.trips.tripPattern[Int(t)])]
            return Int(tt.departures[Int(p.timesStart) + (Int(t) - Int(p.firstTrip)) * Int(p.stopCount)])
        }
        func admitted(_ trips: [Int32]) -> [Int32] {
            tie == nil ? trips : trips.filter { RealtimeTripIndex.admits(RealtimeTripIndex.feed(ofTrip: $0, in: tt), tie: tie, in: tt) }
        }
        var candidates: [Int32]
        if let id = trip.tripID {
            candidates = admitted(Array(index.trips.trips(withID: id)))
            if candidates.isEmpty, let start {
                candidates = admitted(Array(index.trips.trips(withID: "\(id)@\(GTFSFeedReader.clock(start))")))
            }
            if candidates.count > 1, let start { candidates = candidates.filter { firstDeparture($0) == start } }
        } else if let routeID = trip.routeID, let start {
            // Every feed's route of that id: two feeds' runs that fit are ambiguous, as by trip_id.
            candidates = admitted((index.routesByID[routeID] ?? []).flatMap { route in
                index.tripsByRouteStart[RealtimeTripIndex.RouteStart(route: route, start: Int32(start))] ?? []
            })
            if let direction = trip.directionID {
                candidates = candidates.filter { Int(tt.tripDirections[Int($0)]) == direction }
            }
        } else {
            candidates = []
        }
        if let dateText = trip.startDate {
            guard let day = RealtimeTripIndex.day(date: dateText) else { return .failure(.unknownTrip) }
            let running = candidates.filter { tt.services[Int(tt.tripServices[Int($0)])].runs(on: day) }
            if Set(running.map { RealtimeTripIndex.feed(ofTrip: $0, in: tt) }).count > 1 { return .failure(.ambiguousTrip) }
            return running.first.map { .success(Run(trip: $0, day: Int32(day))) } ?? .failure(.unknownTrip)
        }
        let today = ServiceDate.localDay(of: Date(timeIntervalSince1970: TimeInterval(now)), in: tt.timeZone)
        var best: (run: Run, distance: Int)? = nil
        var feeds: Set<Int32> = []
        for candidate in candidates {
            let service = tt.services[Int(tt.tripServices[Int(candidate)])]
            for day in (today - 1)...(today + 1) where service.runs(on: day) {
                feeds.insert(RealtimeTripIndex.feed(ofTrip: candidate, in: tt))
                let distance = abs(reference(day) + firstDeparture(candidate) - now)
                if best.map({ distance < $0.distance }) ?? true { best = (Run(trip: candidate, day: Int32(day)), distance) }
            }
        }
        if feeds.count > 1 { return .failure(.ambiguousTrip) }
        return best.map { .success($0.run) } ?? .failure(.unknownTrip)
    }

    /// Groups live runs into patterns: one per timetable pattern, day and boarding rules, split
    /// where a run would overtake another (as `TimetableBuilder` does), so that the earliest
    /// catchable run is still a binary search.
    private mutating func addPatterns(of runs: [(Run, LiveTripTimes)], timetable tt: Timetable, index: RealtimeTripIndex) {
        struct Key: Hashable {
            var pattern: Int32
            var day: Int32
            var flags: [UInt8]
        }
        var groups: [Key: [Int]] = [:]
        var keys: [Key] = []
        for (k, (run, times)) in runs.enumerated() {
            let p = index.trips.tripPattern[Int(run.trip)]
            let pattern = tt.patterns[Int(p)]
            var flags = Array(tt.patternFlags[Int(pattern.stopsStart)..<Int(pattern.stopsStart + pattern.stopCount)])
            for i in flags.indices where times.skipped[i] { flags[i] = 0 }
            let key = Key(pattern: p, day: run.day, flags: flags)
            if groups[key] == nil { keys.append(key) }
            groups[key, default: []].append(k)
        }
        var longest = 0
        for key in keys {
            let members = (groups[key] ?? []).sorted {
                (runs[$0].1.departures[0], runs[$0].0.trip) < (runs[$1].1.departures[0], runs[$1].0.trip)
            }
            var lanes: [[Int]] = []
            for member in members {
                let times = runs[member].1
                if let lane = lanes.firstIndex(where: { lane in
                    guard let last = lane.last else { return true }
                    let prior = runs[last].1
                    return zip(prior.arrivals, times.arrivals).allSatisfy { $0 <= $1 }
                        && zip(prior.departures, times.departures).allSatisfy { $0 <= $1 }
                }) {
                    lanes[lane].append(member)
                } else {
                    lanes.append([member])
                }
            }
            let base = tt.patterns[Int(key.pattern)]
            for lane in lanes {
                var pattern = Timetable.Pattern(stopsStart: Int32(patterns.stops.count), stopCount: base.stopCount,
                                                firstTrip: Int32(baseTrips.count), tripCount: Int32(lane.count),
                                                timesStart: Int32(patterns.arrivals.count), minTime: .max, maxTime: .min)
                patterns.stops.append(contentsOf: tt.patternStops[Int(base.stopsStart)..<Int(base.stopsStart + base.stopCount)])
                patterns.flags.append(contentsOf: key.flags)
                for member in lane {
                    let (run, times) = runs[member]
                    liveRuns[run] = Int32(baseTrips.count)
                    baseTrips.append(run.trip)
                    patterns.arrivals.append(contentsOf: times.arrivals)
                    patterns.departures.append(contentsOf: times.departures)
                    pattern.minTime = min(pattern.minTime, times.departures[0])
                    pattern.maxTime = max(pattern.maxTime, times.arrivals[times.arrivals.count - 1])
                }
                patterns.patterns.append(pattern)
                patternDays.append(key.day)
                basePatterns.append(key.pattern)
                longest = max(longest, lane.count)
            }
        }
        identity = (0..<Int32(longest)).map { $0 }
        guard !basePatterns.isEmpty else { return }
        var counts = [Int32](repeating: 0, count: tt.patterns.count + 1)
        for base in basePatterns { counts[Int(base) + 1] += 1 }
        for p in 0..<tt.patterns.count { counts[p + 1] += counts[p] }
        liveByBase = counts
        var fill = Array(counts.dropLast())
        liveOfBase = [Int32](repeating: 0, count: basePatterns.count)
        for (o, base) in basePatterns.enumerated() {
            liveOfBase[Int(fill[Int(base)])] = Int32(o)
            fill[Int(base)] += 1
        }
    }
}
