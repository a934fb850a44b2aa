import Foundation

/// Round-based public transit routing (Delling, Pajor, Werneck 2012), written for this
/// timetable: round k finds the best arrivals with k rides; a pattern is scanned once per
/// round from the first stop where it could be boarded.
///
/// Model (the brute-force test implements the same one):
/// - The journey starts with an *access* walk to a stop (ready to board at T + walk) and
///   ends with an *egress* walk from the stop where the last ride alights.
/// - After alighting at a stop, you may board again there after its change time, or take
///   one footpath to another stop (walking time at the user's pace, never under the
///   transfers.txt minimum or the default change time).
/// - A ride boards only where pickup is allowed and alights only where drop-off is.
/// - Trips belong to service days; a trip of day d at GTFS time t happens at
///   `reference(d) + t`, so trips past 24:00 and DST days come out right.
///
/// Depart-at and arrive-by are one search, generic over its `SearchDirection`: arrive-by
/// runs the same rounds backwards from the deadline (latest departure).
///
/// A realtime overlay (`RealtimeOverlay`) adds live patterns: whenever a timetable pattern is
/// scanned, its live patterns (the same stops) are scanned on their own service day too, and
/// the `days` given leave out the runs the overlay cancels or replaces.
struct Raptor: Sendable {
    struct Endpoint: Hashable, Sendable {
        var stop: Int32
        var seconds: Int
    }

    /// A service day considered by a query: its day number, reference instant and the trips
    /// that run on it, per pattern: `running[runningStart[p]..<runningStart[p + 1]]` are the
    /// running trips of pattern p (indexes within the pattern, ascending), so a search never
    /// steps over a trip of another day and skips a pattern that does not run at all.
    struct ServiceDay: Sendable {
        var day: Int
        var reference: Int
        var runningStart: [Int32]
        var running: [Int32]

        /// - parameter excluding: global trip indexes left out (runs a realtime overlay cancels or replaces).
        init(day: Int, timetable: Timetable, excluding: Set<Int32> = []) {
            self.day = day
            reference = ServiceDate.referenceInstant(day, in: timetable.timeZone)
            let active = timetable.services.map { $0.runs(on: day) }
            runningStart = [0]
            runningStart.reserveCapacity(timetable.patterns.count + 1)
            running = []
            for pattern in timetable.patterns {
                for trip in 0..<Int(pattern.tripCount) where active[Int(timetable.tripServices[Int(pattern.firstTrip) + trip])]
                    && (excluding.isEmpty || !excluding.contains(pattern.firstTrip + Int32(trip))) {
                    running.append(Int32(trip))
                }
                runningStart.append(Int32(running.count))
            }
        }
    }

    struct Ride: Hashable, Sendable {
        var pattern: Int32
        /// Global trip index.
        var trip: Int32
        var boardIndex: Int32
        var alightIndex: Int32
        var boardStop: Int32
        var alightStop: Int32
        var departure: Int
        var arrival: Int
        /// For a live run (a realtime overlay's): the timetable's times of the same calls.
        var scheduledDeparture: Int? = nil
        var scheduledArrival: Int? = nil
        /// The service day the ride's trip runs on.
        var day = 0
    }

    /// A walk between two rides: the same stop (a change) or a footpath.
    struct Transfer: Hashable, Sendable {
        var from: Int32
        var to: Int32
        var seconds: Int
    }

    struct Journey: Hashable, Sendable {
        var departure: Int
        var arrival: Int
        var access: Endpoint
        var egress: Endpoint
        var rides: [Ride]
        /// `rides.count - 1` entries; `from == to` for a change at one stop.
        var transfers: [Transfer]
    }

    /// How far from the requested time a journey may end (depart-at) or start (arrive-by):
    /// beyond it "no service" is the honest answer, not tomorrow's first bus.
    static let defaultHorizon = 12 * 3600

    let timetable: Timetable
    /// The timetable's patterns as the rounds scan them.
    let staticPatterns: PatternTable
    /// Per stop: every flag allowed (no stop closed by an alert).
    let openStops: [UInt8]
    /// The footpaths at this pace as depart-at (outgoing) and arrive-by (incoming) rounds follow them.
    let outgoingHops: FootHops
    let incomingHops: FootHops
    /// The stop graph bounding the time left to a search's target from below (`RemainingTimeGraph`).
    let remainingTime: RemainingTimeGraph
    /// Working arrays reused across queries (and shared by engines of one timetable).
    let scratchPool: RaptorScratchPool
    /// The earliest and latest time of any timetable trip, in seconds of its service day (nil: no trips).
    let timeSpan: ClosedRange<Int>?
    /// Whether searches prune by the remaining time graph's bound (tests compare with it off).
    var boundsRemainingTime = true
    /// Whether that bound is read from the graph's table of distances where it keeps one; false
    /// searches the graph per query, as past `RemainingTimeGraph.tableStopLimit` stops (tests).
    var readsRemainingTimeTable = true
    /// Where the bound is not read from the table of stops: the share of its radius, in per cent,
    /// searched exactly from the search's target, the rest read from the table of cells and the
    /// landmarks (`cellBound`); 100 searches the whole radius, 0 reads the cells alone. 10 since
    /// the landmarks (30 before): they bound most of what the search did, for less work.
    var remainingTimeExactPercent = Raptor.defaultRemainingTimeExactPercent
    static let defaultRemainingTimeExactPercent = 10
    /// Whether that bound is raised by the landmarks of the target's region where the graph has
    /// them; false reads the cells' alone (tests and the bench compare the answers with it off).
    var readsLandmarks = true

    /// An engine for one walking pace; build it once per timetable and pace, not per query.
    /// - parameter remainingTimeTableStopLimit: the most stops for which the remaining time graph
    ///   keeps its tables (`RemainingTimeGraph.tableStopLimit`; tests lower it).
    /// - parameter remainingTimeCellStops: the most stops in one of the graph's cells
    ///   (`StopCells.defaultStopsPerCell` when nil; tests set it for their small feeds).
    /// - parameter remainingTimeRegionStops: the most stops in a region of landmarks past the
    ///   tables' limit (`StopLandmarks.regionStops` when nil; tests set it for their small feeds).
    init(timetable: Timetable, paceMultiplier: Double, scratchPool: RaptorScratchPool = RaptorScratchPool(),
         remainingTimeTableStopLimit: Int = RemainingTimeGraph.tableStopLimit, remainingTimeCellStops: Int? = nil,
         remainingTimeRegionStops: Int? = nil) {
        self.timetable = timetable
        staticPatterns = timetable.patternTable
        openStops = [UInt8](repeating: 0xFF, count: timetable.stops.count)
        let seconds = timetable.footWalkSeconds.indices.map { e in
            let walk = (Double(timetable.footWalkSeconds[e]) * paceMultiplier).rounded(.up)
            return Int32(clamping: max(Int(walk), Int(timetable.footMinimumSeconds[e])))
        }
        outgoingHops = Forward.footHops(timetable, seconds: seconds)
        incomingHops = Backward.footHops(timetable, seconds: seconds)
        let cells = StopCells(latitudes: timetable.stops.map(\.latitude), longitudes: timetable.stops.map(\.longitude),
                              stopsPerCell: remainingTimeCellStops ?? StopCells.defaultStopsPerCell(stopCount: timetable.stops.count))
        let stopCount = timetable.stops.count, patterns = staticPatterns
        // Only past the tables' limit does a search read landmarks (tests lower the limit).
        let landmarks = stopCount <= remainingTimeTableStopLimit ? nil : StopLandmarks(
            latitudes: timetable.stops.map(\.latitude), longitudes: timetable.stops.map(\.longitude),
            served: (0..<stopCount).map { patterns.stopPatternStart[$0 + 1] > patterns.stopPatternStart[$0] },
            regionStops: remainingTimeRegionStops ?? StopLandmarks.regionStops)
        remainingTime = RemainingTimeGraph(patterns: staticPatterns, stopCount: stopCount, footpaths: outgoingHops,
                                           cells: cells, landmarks: landmarks, tableStopLimit: remainingTimeTableStopLimit)
        self.scratchPool = scratchPool
        timeSpan = staticPatterns.timeSpan
    }

    /// The service days around a local day (previous, same, next), so that trips past
    /// midnight of the day before and early trips of the next day are both seen.
    static func serviceDays(around day: Int, timetable: Timetable) -> [ServiceDay] {
        (day - 1...day + 1).map { ServiceDay(day: $0, timetable: timetable) }
    }

    // MARK: - Searching

    /// Earliest arrival leaving at `time`, one journey per number of rides that improves
    /// on fewer rides (the Pareto set over arrival and transfers), fewest rides first.
    /// - parameter horizon: seconds; journeys arriving later than `time + horizon` are not searched.
    /// - parameter overlay: live runs scanned besides the timetable's (`days` should come from its `days(replacing:)`).
    /// - parameter stopMask: per stop, the flags allowed there (0 at a stop closed by an alert); nil allows all.
    func departAt(_ time: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon, overlay: RealtimeOverlay? = nil, stopMask: [UInt8]? = nil) -> [Journey] {
        search(Forward.self, from: time, access: access, egress: egress, days: days, maxRides: maxRides, horizon: horizon,
               overlay: overlay, stopMask: stopMask, bound: Unbounded()) { journeys, _, _ in journeys }
    }

    /// Latest departure still arriving by `deadline`; one journey per number of rides that
    /// improves on fewer rides, fewest rides first.
    /// - parameter horizon: seconds; journeys leaving earlier than `deadline - horizon` are not searched.
    func arriveBy(_ deadline: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon, overlay: RealtimeOverlay? = nil, stopMask: [UInt8]? = nil) -> [Journey] {
        search(Backward.self, from: deadline, access: access, egress: egress, days: days, maxRides: maxRides, horizon: horizon,
               overlay: overlay, stopMask: stopMask, bound: Unbounded()) { journeys, _, _ in journeys }
    }

    /// Depart-at as a traveller takes it: the earliest arrivals from `time` (`departAt`), and
    /// then, arriving in the minute the journey `choose` picks among them arrives in (its arrival
    /// as shown: `JourneyChoice.endOfShownMinute`), the latest departures
    /// no earlier than that journey's, with up to `maxRides` rides (the forward search boards a
    /// vehicle at the first stop it can, so its journey may leave early to walk farther to the
    /// same ride, take an earlier walk to the same connection, or walk where a short ride onto
    /// the same vehicle leaves later). The backward pass is what `arriveBy` from that arrival
    /// finds, searching only departures from the chosen journey's on and bounded by the forward
    /// search's earliest times at each stop (`DepartureCorridor`). A journey with more rides than
    /// the chosen one is searched only where it leaves over `laterBy` seconds after any with
    /// fewer (`RideMargin`).
    /// - returns: the forward search's journeys, the chosen one and the backward pass's journeys.
    func departAt(_ time: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon, overlay: RealtimeOverlay? = nil, stopMask: [UInt8]? = nil,
                  moreRidesLeavingLaterBy laterBy: Int = 0,
                  thenLatestFrom choose: ([Journey]) -> Journey?) -> (earliest: [Journey], chosen: Journey?, latest: [Journey]) {
        let found = departAt(time, access: access, egress: egress, days: days, maxRides: maxRides, horizon: horizon,
                             overlay: overlay, stopMask: stopMask, moreRidesLeavingLaterBy: laterBy, thenLatestFrom: choose,
                             thenSoonerLeavingAsLateAs: nil)
        return (found.earliest, found.chosen, found.latest)
    }

    /// `departAt(…thenLatestFrom:)`, and then, where the journey `take` picks among the backward
    /// pass's journeys arrives in a later shown minute than the forward search's earliest arrival,
    /// the earliest arrivals leaving when it leaves, with as many rides as it has (`sooner`). The
    /// backward pass finds the latest departure arriving by a deadline, but of the journeys leaving
    /// then it builds one, which may arrive later than another (trial 60 F2: asked at 09:35, a
    /// slower journey with no change, leaving earlier, set the arrival a change must beat, and the
    /// pass built bus 50 to Keskustori J and a walk to bus 8, arriving 10:17, where the same bus 50
    /// to Koskipuisto C and bus 7 arrive 10:14). Where such a sooner arrival exists, `sooner` also holds the backward
    /// pass's journeys from the end of its shown minute, no earlier than that departure, so that
    /// the journey taken changes where the backward pass would change (as asked later, when that
    /// arrival is the chosen one). A third search only where the minutes differ (a change that
    /// did not pay for itself), a fourth only where the departure arrives sooner.
    func departAt(_ time: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon, overlay: RealtimeOverlay? = nil, stopMask: [UInt8]? = nil,
                  moreRidesLeavingLaterBy laterBy: Int = 0, thenLatestFrom choose: ([Journey]) -> Journey?,
                  thenSoonerLeavingAsLateAs take: (([Journey]) -> Journey?)?)
        -> (earliest: [Journey], chosen: Journey?, latest: [Journey], sooner: [Journey]) {
        search(Forward.self, from: time, access: access, egress: egress, days: days, maxRides: maxRides, horizon: horizon,
               overlay: overlay, stopMask: stopMask, bound: Unbounded(), endsInTheShownMinuteBy: .max) { earliest, scratch, _ in
            guard let chosen = choose(earliest) else { return (earliest, nil, [], []) }
            // Only a journey of the Pareto set found gets the backward pass (one the choice made
            // up, as a test does, has no labels of its own behind it).
            guard earliest.contains(chosen) else { return (earliest, chosen, [], []) }
            let soonest = earliest.map(\.arrival).min() ?? .max
            let corridor = DepartureCorridor(earliestBoarding: scratch.ready, earliestArrival: scratch.reached,
                                             ceiling: soonest, slack: scratch.remainingBound)
            // The latest departures no earlier than `departure` arriving by `deadline`, past `rides`
            // rides only those leaving over `laterBy` later than any with fewer (`RideMargin`). The
            // corridor holds for any deadline: it bounds where a journey leaving from `time` on can be.
            func latest(arrivingBy deadline: Int, leavingFrom departure: Int, rides: Int) -> [Journey] {
                search(Backward.self, from: deadline, access: access, egress: egress, days: days,
                       maxRides: maxRides, horizon: deadline - departure + 1,
                       overlay: overlay, stopMask: stopMask, bound: corridor, endsInTheShownMinuteBy: deadline,
                       margin: RideMargin(afterRides: rides, seconds: laterBy)) { journeys, _, _ in journeys }
            }
            // Arriving in the minute the chosen journey's arrival is shown in: the same arrival
            // (`JourneyChoice.taken`). One second more than that takes: its own departure is searched too.
            let backward = latest(arrivingBy: JourneyChoice.endOfShownMinute(chosen.arrival), leavingFrom: chosen.departure,
                                  rides: chosen.rides.count)
            guard let take, let taken = take(backward),
                  JourneyChoice.endOfShownMinute(soonest) < JourneyChoice.endOfShownMinute(taken.arrival) else {
                return (earliest, chosen, backward, [])
            }
            let deadline = JourneyChoice.endOfShownMinute(taken.arrival)
            let leaving = search(Forward.self, from: taken.departure, access: access, egress: egress, days: days,
                                 maxRides: taken.rides.count, horizon: deadline - taken.departure + 1, overlay: overlay,
                                 stopMask: stopMask, bound: Unbounded(), endsInTheShownMinuteBy: deadline) { journeys, _, _ in journeys }
            guard let first = leaving.map(\.arrival).min(),
                  JourneyChoice.endOfShownMinute(first) < deadline else { return (earliest, chosen, backward, leaving) }
            // As many rides as the journey taken has, unpruned: a journey leaving when it leaves is
            // what is searched, not one leaving later than the chosen one.
            return (earliest, chosen, backward, latest(arrivingBy: JourneyChoice.endOfShownMinute(first), leavingFrom: taken.departure,
                                                       rides: taken.rides.count) + leaving)
        }
    }

    /// Arrive-by as a traveller takes it: the latest departures by `deadline` (`arriveBy`), and
    /// then, leaving when the journey `choose` picks among them leaves, the earliest arrivals
    /// before that journey's with up to `maxRides` rides (the backward search's journey may be a
    /// slow one arriving just before the deadline). The forward pass is what `departAt` from
    /// that departure finds, bounded by the backward search's latest times at each stop
    /// (`DeadlineCorridor`): it explores only what can still make the deadline. A journey with
    /// more rides than the chosen one is searched only where each ride more arrives over
    /// `soonerBy` seconds sooner (`RideMargin`). Departures up to `sameDepartureWithin` seconds
    /// before the chosen one's count as the same departure: the forward pass starts that much
    /// earlier (bus 12 leaving 08:18:45 to arrive 08:40 was the answer where bus 19 leaves
    /// 08:18:00 and arrives 08:35, trial 59b F6).
    /// - returns: the backward search's journeys, the chosen one and the forward pass's journeys.
    func arriveBy(_ deadline: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon, overlay: RealtimeOverlay? = nil, stopMask: [UInt8]? = nil,
                  moreRidesArrivingSoonerBy soonerBy: Int = 0, sameDepartureWithin: Int = 0,
                  thenEarliestFrom choose: ([Journey]) -> Journey?) -> (latest: [Journey], chosen: Journey?, earliest: [Journey]) {
        search(Backward.self, from: deadline, access: access, egress: egress, days: days, maxRides: maxRides, horizon: horizon,
               overlay: overlay, stopMask: stopMask, bound: Unbounded(), endsInTheShownMinuteBy: deadline) { latest, scratch, best in
            guard let chosen = choose(latest), let best else { return (latest, nil, []) }
            // Journeys with more rides than the chosen one are searched too, so the corridor also
            // allows what the backward search may have dropped (`DeadlineCorridor`).
            let corridor = DeadlineCorridor(latestArrival: scratch.ready, latestBoarding: scratch.reached,
                                            floor: best, slack: scratch.remainingBound)
            let earliest = search(Forward.self, from: chosen.departure - sameDepartureWithin, access: access, egress: egress, days: days,
                                  maxRides: maxRides, horizon: chosen.arrival - chosen.departure + sameDepartureWithin,
                                  overlay: overlay, stopMask: stopMask, bound: corridor, endsInTheShownMinuteBy: deadline,
                                  margin: RideMargin(afterRides: chosen.rides.count, seconds: soonerBy)) { journeys, _, _ in journeys }
            return (latest, chosen, earliest)
        }
    }

    /// The rounds in `direction` from `time`, on a scratch taken from the pool; `body` sees the
    /// journeys found, the scratch with the search's labels and the best time found at the
    /// target (nil if none), before the scratch is given back clean.
    /// - parameter endsInTheShownMinuteBy: for the searches whose journeys are answers (the
    ///   passes of `departAt(…thenLatestFrom:)` and `arriveBy(…thenEarliestFrom:)`), the deadline
    ///   up to which a journey's last ride may leave at a stop with a shorter walk arriving in the
    ///   same shown minute (`boardingTheTripsNearestEnds`); nil: no later than it arrives.
    private func search<D: SearchDirection, B: SearchBound, R>(_ direction: D.Type, from time: Int, access: [Endpoint],
                                                               egress: [Endpoint], days: [ServiceDay], maxRides: Int, horizon: Int,
                                                               overlay: RealtimeOverlay?, stopMask: [UInt8]?, bound: B,
                                                               endsInTheShownMinuteBy deadline: Int? = nil,
                                                               margin: RideMargin = .none,
                                                               _ body: ([Journey], RaptorScratch, Int?) -> R) -> R {
        let live = overlay ?? RealtimeOverlay()
        let days = self.days(days, D.self, from: time, horizon: horizon, overlay: live)
        let scratch = scratchPool.take(D.self, stopCount: timetable.stops.count, patternCount: timetable.patterns.count)
        let rounds = max(1, maxRides)
        scratch.reserveRounds(rounds + 1)
        let (start, target) = D.ends(access: access, egress: egress)
        // Live runs may be faster than any timetabled trip, and arrive-by's forward pass is
        // bounded already: the time left is bounded only in a search of the timetable alone
        // (and from walks that take no negative time, the bound's start).
        let boundsRemaining = boundsRemainingTime && remainingTime.usable && B.self == Unbounded.self
            && live.patterns.patterns.isEmpty && target.allSatisfy { $0.seconds >= 0 }
        let found: [TargetReached]
        if scratchPool.workCounter.isCounting {
            let tally = CountingWork()
            found = runRounds(D.self, from: time, start: start, target: target, days: days, rounds: rounds, horizon: horizon,
                              overlay: live, stopMask: stopMask ?? openStops, bound: bound, margin: margin,
                              boundsRemaining: boundsRemaining, scratch: scratch, tally: tally)
            scratchPool.workCounter.add(tally.work)
        } else {
            found = runRounds(D.self, from: time, start: start, target: target, days: days, rounds: rounds, horizon: horizon,
                              overlay: live, stopMask: stopMask ?? openStops, bound: bound, margin: margin,
                              boundsRemaining: boundsRemaining, scratch: scratch, tally: NotCountingWork())
        }
        let mask = stopMask ?? openStops
        let journeys = found.compactMap {
            journey(D.self, reaching: $0, start: start, days: days, overlay: live, scratch: scratch, stopMask: mask,
                    arrivingBy: deadline ?? .min)
        }
        let result = body(journeys, scratch, found.last?.time)
        scratch.reset(targets: target)
        scratchPool.giveBack(scratch)
        return result
    }

    /// The service days with a trip that may run between `time` and `horizon` from it, in the
    /// order given: decided once per query, so that the rounds do not test, for every pattern
    /// they scan, the days on which nothing runs in the search's window (a depart-at query in
    /// the morning leaves out yesterday, whose trips ended before it, and tomorrow, whose trips
    /// start past its horizon).
    private func days<D: SearchDirection>(_ days: [ServiceDay], _ direction: D.Type, from time: Int, horizon: Int,
                                          overlay: RealtimeOverlay) -> [ServiceDay] {
        var span = timeSpan
        if let live = overlay.patterns.timeSpan {  // live runs may run later (or earlier) than any timetabled trip
            span = span.map { min($0.lowerBound, live.lowerBound)...max($0.upperBound, live.upperBound) } ?? live
        }
        guard let span else { return [] }
        let (first, last) = D.span(earliest: span.lowerBound, latest: span.upperBound)
        let end = D.plus(time, horizon)
        let kept = days.filter { !D.isBefore($0.reference &+ last, time) && D.isBefore($0.reference &+ first, end) }
        return kept.count == days.count ? days : kept
    }

    /// A round and stop where the search reached the target better than with fewer rides.
    private struct TargetReached {
        var round: Int
        var stop: Int32
        var time: Int
    }

    /// Round k finds the best times with k rides: it scans each pattern serving a stop made
    /// ready in round k - 1, from the first such stop in scan order (those serving a target
    /// stop first, so that the round's best time at the target bounds the others), then follows
    /// the changes and footpaths from the stops it improved. Rides hop off and stops are made
    /// ready only before the best time found at the target (nothing later can improve on it).
    /// - parameter tally: counts the rounds' work (`EngineWork`); `NotCountingWork` costs nothing.
    private func runRounds<D: SearchDirection, B: SearchBound, T: RaptorWorkTally>(
        _ direction: D.Type, from time: Int, start: [Endpoint], target: [Endpoint], days: [ServiceDay], rounds: Int,
        horizon: Int, overlay: RealtimeOverlay, stopMask: [UInt8], bound: B, margin: RideMargin, boundsRemaining: Bool,
        scratch: RaptorScratch, tally: T) -> [TargetReached] {
        staticPatterns.withBuffers { statics in
            overlay.patterns.withBuffers { lives in
                ServiceDay.withBuffers(days[...]) { dayBuffers in
                    stopMask.withUnsafeBufferPointer { mask in
                        overlay.identity.withUnsafeBufferPointer { identity in
                            D.footHops(of: self).withBuffers { foot in
                                D.remainingTimeRows(of: self).withBuffers { toTarget in
                                    timetable.changeSeconds.withUnsafeBufferPointer { change in
                                        runRounds(D.self, from: time, start: start, target: target, days: dayBuffers, rounds: rounds,
                                                  horizon: horizon, overlay: overlay, statics: statics, lives: lives,
                                                  identity: identity, stopMask: mask, foot: foot, changeSeconds: change, bound: bound,
                                                  margin: margin, remainingTimeRows: boundsRemaining ? toTarget : nil, scratch: scratch,
                                                  tally: tally)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `runRounds` on raw views of the arrays its inner loop reads.
    private func runRounds<D: SearchDirection, B: SearchBound, T: RaptorWorkTally>(
        _ direction: D.Type, from time: Int, start: [Endpoint], target: [Endpoint], days: [DayBuffers], rounds: Int,
        horizon: Int, overlay: RealtimeOverlay, statics: PatternBuffers, lives: PatternBuffers, identity: UnsafeBufferPointer<Int32>,
        stopMask: UnsafeBufferPointer<UInt8>, foot: FootHopBuffers, changeSeconds: UnsafeBufferPointer<Int32>,
        bound: B, margin: RideMargin, remainingTimeRows: FootHopBuffers?,
        scratch: RaptorScratch, tally: T) -> [TargetReached] {
        let stopCount = timetable.stops.count
        let unreached = D.unreached
        let staticCount = statics.patterns.count
        let liveByBase = overlay.liveByBase, liveOfBase = overlay.liveOfBase, patternDays = overlay.patternDays
        let ready = scratch.ready, reached = scratch.reached
        let targetSeconds = scratch.targetSeconds, queueIndex = scratch.queueIndex, queueLast = scratch.queueLast
        let queuedWords = scratch.queuedWords, queuedWordCount = scratch.queuedWordCount, targetWords = scratch.targetWords
        let parents = scratch.parents, rides = scratch.rides
        let marked = scratch.marked, improved = scratch.improved, touched = scratch.touched
        let markedNow = marked.member  // during a round's scans: made ready in the round before
        // Per stop, a lower bound on the seconds from it to the target: 0 until the target is
        // first reached, then the remaining time graph's distances (`RemainingTimeGraph`). The
        // scans get it passed, not captured (a captured variable costs an exclusivity check).
        var remaining = scratch.remainingBound

        for e in target where targetSeconds[Int(e.stop)] < 0 || e.seconds < targetSeconds[Int(e.stop)] {
            targetSeconds[Int(e.stop)] = e.seconds
        }
        for e in target {  // the patterns that can reach the target (their live runs have the same stops)
            for k in Int(statics.stopPatternStart[Int(e.stop)])..<Int(statics.stopPatternStart[Int(e.stop) &+ 1]) {
                let p = Int(statics.stopPatternEntries[k])
                targetWords[p &>> 6] |= 1 &<< UInt64(p & 63)
            }
        }
        // A start the bound refuses leads nowhere (a second pass's corridor).
        for a in start where D.isBefore(D.plus(time, a.seconds), ready[Int(a.stop)])
            && bound.allowsReady(D.plus(time, a.seconds), at: Int(a.stop)) {
            let s = Int(a.stop)
            if ready[s] == unreached { touched.append(a.stop) }
            ready[s] = D.plus(time, a.seconds)
            parents[s] = .endpoint
            marked.insert(a.stop)
        }
        var best = D.plus(time, horizon)
        var reachedTarget: [TargetReached] = []

        for round in 1...rounds where marked.count > 0 {
            let labels = round * stopCount
            tally.count(.stopsMarked, round: round, marked.count)
            // Queue each pattern serving a marked stop, from its first marked stop in scan order
            // through its last.
            for s in marked.elements {
                for e in Int(statics.stopPatternStart[Int(s)])..<Int(statics.stopPatternStart[Int(s) &+ 1]) {
                    let p = Int(statics.stopPatternEntries[e]), i = statics.stopPatternIndexes[e]
                    let queuedFrom = queueIndex[p]
                    if queuedFrom < 0 {
                        queuedWords[p &>> 6] |= 1 &<< UInt64(p & 63)
                        queueIndex[p] = i
                        queueLast[p] = i
                    } else if D.scansBefore(i, queuedFrom) {
                        queueIndex[p] = i
                    } else if D.scansBefore(queueLast[p], i) {
                        queueLast[p] = i
                    }
                }
            }

            /// Rides one pattern's running trips of one day from stop index `from` in scan order:
            /// hop off where the current trip improves a stop, hop on a better trip where the
            /// previous round made a stop ready (`marked`). A trip caught at a stop ready since an
            /// earlier round was ridden from there in that round's next one, so it improves
            /// nothing now. Past `last`, the last marked stop, the scan only hops off, and only
            /// until the trip reaches no earlier than the target's best time (times never go
            /// back along a trip). `limit` is that best time, passed rather than captured: the
            /// scans reading a variable they capture pay a dynamic exclusivity check.
            @inline(__always)
            func scan(_ pattern: Timetable.Pattern, label: Int32, from: Int, last: Int, table: PatternBuffers,
                      running: UnsafeBufferPointer<Int32>, runningRange: Range<Int>, dayIndex: Int, before limit: Int,
                      remaining: RemainingBound) {
                let ref = days[dayIndex].reference
                let span = D.span(pattern)
                if runningRange.isEmpty || D.isBefore(ref &+ span.last, time) || !D.isBefore(ref &+ span.first, limit) { return }
                tally.count(.dayScans, round: round, 1)
                let hopOnTimes = D.hopOnTimes(table), hopOffTimes = D.hopOffTimes(table)
                let stops = table.stops, patternFlags = table.flags
                let n = Int(pattern.stopCount)
                let stopsBase = Int(pattern.stopsStart), timesBase = Int(pattern.timesStart)
                var position = -1  // of the current trip in `running`
                var tripBase = 0  // of the current trip's times: timesBase + trip * n
                var trip = -1
                var hopOnIndex = 0
                /// The current trip's label hopping off at index `i`.
                @inline(__always) func ride(to i: Int, trip: Int, hopOnIndex: Int) -> RideLabel {
                    let indexes = D.rideIndexes(hopOn: hopOnIndex, hopOff: i)
                    return RideLabel(pattern: label, trip: Int32(truncatingIfNeeded: trip), day: Int32(truncatingIfNeeded: dayIndex),
                                     boardIndex: Int32(truncatingIfNeeded: indexes.board),
                                     alightIndex: Int32(truncatingIfNeeded: indexes.alight))
                }
                for i in D.scan(from: from, through: last) {
                    tally.count(.stopsVisited, round: round, 1)
                    let s = Int(stops[stopsBase &+ i])
                    let flags = patternFlags[stopsBase &+ i] & stopMask[s]
                    if trip >= 0 && flags & D.hopOffFlag != 0 {
                        let t = ref &+ Int(hopOffTimes[tripBase &+ i])
                        if D.isBefore(D.plus(t, remaining[s]), limit) && D.isBefore(t, reached[s])
                            && bound.allowsHopOff(t, at: s) {
                            if reached[s] == unreached { touched.append(Int32(s)) }
                            reached[s] = t
                            rides[labels &+ s] = ride(to: i, trip: trip, hopOnIndex: hopOnIndex)
                            improved.insert(Int32(s))
                            tally.count(.hopOffs, round: round, 1)
                        }
                    }
                    guard flags & D.hopOnFlag != 0, markedNow[s] else { continue }
                    let local = ready[s] &- ref
                    if trip >= 0 && D.isBefore(Int(hopOnTimes[tripBase &+ i]), local) { continue }
                    tally.count(.tripSearches, round: round, 1)
                    if let better = D.catchableTrip(after: local, current: position, among: runningRange, trips: running,
                                                    times: hopOnTimes, base: timesBase &+ i, stride: n) {
                        position = better
                        trip = Int(running[better])
                        tripBase = timesBase &+ trip &* n
                        hopOnIndex = i
                    }
                }
                guard trip >= 0 else { return }
                for i in D.scan(from: D.next(last), count: n) {
                    tally.count(.stopsVisited, round: round, 1)
                    let t = ref &+ Int(hopOffTimes[tripBase &+ i])
                    if !D.isBefore(t, limit) { return }
                    let s = Int(stops[stopsBase &+ i])
                    // The same hop-off as above, written out: a shared local function for it costs a
                    // dynamic exclusivity check per call on the lists it changes.
                    if patternFlags[stopsBase &+ i] & stopMask[s] & D.hopOffFlag != 0 && D.isBefore(t, reached[s])
                        && D.isBefore(D.plus(t, remaining[s]), limit) && bound.allowsHopOff(t, at: s) {
                        if reached[s] == unreached { touched.append(Int32(s)) }
                        reached[s] = t
                        rides[labels &+ s] = ride(to: i, trip: trip, hopOnIndex: hopOnIndex)
                        improved.insert(Int32(s))
                        tally.count(.hopOffs, round: round, 1)
                    }
                }
            }

            /// Scans queued pattern `p` on each service day, and its live runs.
            @inline(__always)
            func scanQueued(_ p: Int, before limit: Int, remaining: RemainingBound) {
                let p32 = Int32(truncatingIfNeeded: p)
                let from = Int(queueIndex[p]), last = Int(queueLast[p])
                queueIndex[p] = -1
                tally.count(.patternsScanned, round: round, 1)
                let pattern = statics.patterns[p]
                for dayIndex in D.scan(from: D.first(count: days.count), count: days.count) {
                    let day = days[dayIndex]
                    scan(pattern, label: p32, from: from, last: last, table: statics, running: day.running,
                         runningRange: Int(day.runningStart[p])..<Int(day.runningStart[p &+ 1]), dayIndex: dayIndex,
                         before: limit, remaining: remaining)
                }
                // The live runs of this pattern: same stops, all trips running on their one day.
                guard !liveByBase.isEmpty else { return }
                for k in Int(liveByBase[p])..<Int(liveByBase[p + 1]) {
                    let o = Int(liveOfBase[k])
                    let livePattern = lives.patterns[o]
                    let day = Int(patternDays[o])
                    guard let dayIndex = days.firstIndex(where: { $0.day == day }) else { continue }
                    scan(livePattern, label: Int32(staticCount + o), from: from, last: last, table: lives, running: identity,
                         runningRange: 0..<Int(livePattern.tripCount), dayIndex: dayIndex, before: limit, remaining: remaining)
                }
            }

            // First the queued patterns serving a target stop (pass 0): only they reach the
            // target, so after them the round's best time there is known (reach the target
            // first), and it bounds the other scans of the round (pass 1) and the transfers: a
            // hop-off or a ready time no earlier improves nothing, in this round or a later one.
            // One loop for both passes, so that the scans are inlined once.
            let bestBefore = best
            var bestStop: Int32 = -1
            for pass in 0..<2 {
                if pass == 1 {
                    for e in target where improved.member[Int(e.stop)] {
                        let s = Int(e.stop), t = D.plus(reached[s], targetSeconds[s])
                        if D.isBefore(t, best) {
                            best = t
                            bestStop = e.stop
                        }
                    }
                    // The first time the target is reached, the time left from each stop is bounded
                    // up to the time this took: a stop farther than that improves nothing.
                    if let rows = remainingTimeRows, !scratch.remainingSet, D.isBefore(best, D.plus(time, horizon)) {
                        scratch.remainingSet = true
                        let radius = abs(best - time)
                        if readsRemainingTimeTable, let table = D.remainingTimeTable(of: self) {
                            table.withUnsafeBufferPointer {
                                RemainingTimeGraph.fill(scratch.closeness, stopCount: stopCount, from: target, radius: radius, table: $0)
                            }
                            scratch.settledCount = -1
                        } else {
                            // Depart-at's forward search leaves unwritten the cells it cannot reach in
                            // time; arrive-by's backward one writes them all (its bound may be a slack).
                            let reachedFrom = D.self == Forward.self ? start : []
                            scratch.settledCount = (D.remainingTimeCellTable(of: self) ?? []).withUnsafeBufferPointer {
                                cellBound(radius: radius, target: target, reachedFrom: reachedFrom, rows: rows, cellTable: $0,
                                          landmarks: readsLandmarks ? D.remainingTimeLandmarks(of: self) : nil, scratch: scratch)
                            }
                        }
                        scratch.far = min(radius, RemainingTimeGraph.radiusCap)
                        tally.countBound(stops: scratch.settledCount < 0 ? stopCount : scratch.settledCount)
                        remaining = scratch.remainingBound
                        // The stops the round before made ready without that bound: a trip caught
                        // at one too far from the target improves nothing.
                        for s in marked.elements where !D.isBefore(D.plus(ready[Int(s)], remaining[Int(s)]), best) {
                            markedNow[Int(s)] = false
                        }
                    }
                }
                // Past the margin's rides, a hop-off must also beat the best with fewer rides by the margin.
                let limit = round > margin.afterRides ? D.earlier(best, D.plus(bestBefore, -margin.seconds)) : best
                let remainingNow = remaining
                for w in 0..<queuedWordCount {
                    var bits = queuedWords[w] & (pass == 0 ? targetWords[w] : ~0)
                    if bits == 0 { continue }
                    queuedWords[w] ^= bits
                    while bits != 0 {
                        scanQueued(w &<< 6 | bits.trailingZeroBitCount, before: limit, remaining: remainingNow)
                        bits &= bits &- 1
                    }
                }
            }

            marked.removeAll()

            // Transfer: change at the stop, or walk one footpath. A stop made ready now leads to
            // one ride more: past the margin's rides, only towards beating this best by the margin.
            let bar = round >= margin.afterRides ? D.plus(best, -margin.seconds) : best
            for s32 in improved.elements {
                let s = Int(s32)
                let t = reached[s]
                let change = Int(changeSeconds[s]), left = remaining[s]
                tally.count(.transfersTried, round: round, 1 &+ Int(foot.start[s &+ 1]) &- Int(foot.start[s]))
                if change >= 0 && D.isBefore(D.plus(t, change), ready[s]) && D.isBefore(D.plus(D.plus(t, change), left), bar)
                    && bound.allowsReady(D.plus(t, change), at: s) {
                    if ready[s] == unreached { touched.append(s32) }
                    ready[s] = D.plus(t, change)
                    parents[labels + s] = .sameStop
                    marked.insert(s32)
                    tally.count(.stopsReadied, round: round, 1)
                }
                for k in Int(foot.start[s])..<Int(foot.start[s &+ 1]) {
                    let hop = foot.hops[k]
                    let q = Int(hop.stop), r = D.plus(t, Int(hop.seconds))
                    if D.isBefore(r, ready[q]) && D.isBefore(D.plus(r, remaining[q]), bar) && bound.allowsReady(r, at: q) {
                        if ready[q] == unreached { touched.append(hop.stop) }
                        ready[q] = r
                        parents[labels &+ q] = .footpath(stop: s32, hop: Int32(truncatingIfNeeded: k))
                        marked.insert(hop.stop)
                        tally.count(.stopsReadied, round: round, 1)
                    }
                }
            }
            improved.removeAll()
            if D.isBefore(best, bestBefore) { reachedTarget.append(TargetReached(round: round, stop: bestStop, time: best)) }
        }
        return reachedTarget
    }

    /// The bound on the time left where the table of stops is not kept, into `scratch.closeness`
    /// (`RemainingTimeGraph.fill(_:settled:from:radius:exactRadius:rows:cellTable:buckets:entries:)`):
    /// searched exactly from the target to `remainingTimeExactPercent` of the radius, read from
    /// the table of cells beyond, each stop of the target's landmark region raised to its
    /// landmarks' bound (`StopLandmarks.Bound`) where that is larger. Returns how many stops it
    /// lists in `scratch.settled`.
    ///
    /// A search of the whole radius from the target settles every stop within it; in a country,
    /// where a train brings the next cities within that radius, most of them are stops the rounds
    /// never reach. The cells' table bounds those with a few reads per cell, the landmarks the
    /// target's own city's stops with one read each way per stop.
    private func cellBound(radius: Int, target: [Endpoint], reachedFrom start: [Endpoint], rows: FootHopBuffers,
                           cellTable: UnsafeBufferPointer<Int16>, landmarks: (ahead: [StopLandmarks.Lanes], behind: [StopLandmarks.Lanes])?,
                           scratch: RaptorScratch) -> Int {
        let far = min(radius, RemainingTimeGraph.radiusCap)
        let exact = far * max(0, min(remainingTimeExactPercent, 100)) / 100
        let entries = scratch.entries(capacity: target.count + rows.hops.count)
        func fill(_ bound: StopLandmarks.Bound?) -> Int {
            remainingTime.fill(scratch.closeness, settled: scratch.settled, from: target, radius: radius, exactRadius: exact,
                               rows: rows, cellTable: cellTable, buckets: scratch.buckets, entries: entries, reachedFrom: start,
                               landmarks: bound)
        }
        guard let landmarks, let regions = remainingTime.landmarks else { return fill(nil) }
        return regions.place.withUnsafeBufferPointer { place in
            landmarks.ahead.withUnsafeBufferPointer { ahead in
                landmarks.behind.withUnsafeBufferPointer { behind in
                    fill(StopLandmarks.Bound(regions, place: place, ahead: ahead, behind: behind, endpoints: target, under: far))
                }
            }
        }
    }

    /// Rebuilds the journey that reached the target from its labels, walking back from the
    /// target to the start, with its first and last rides at the stops of their trips nearest
    /// the ends (`boardingTheTripsNearestEnds`).
    /// - parameter arrivingBy: the deadline the last ride's stop never moves past (`search`'s
    ///   `endsInTheShownMinuteBy`; `.min`: the journey keeps its arrival to the second).
    private func journey<D: SearchDirection>(_ direction: D.Type, reaching found: TargetReached, start: [Endpoint],
                                             days: [ServiceDay], overlay: RealtimeOverlay, scratch: RaptorScratch,
                                             stopMask: [UInt8], arrivingBy deadline: Int) -> Journey? {
        let stopCount = timetable.stops.count
        var rides: [Ride] = []
        var targetSide: RideLabel?, startSide: RideLabel?  // the rides found first and last, walking back
        var transfers: [Transfer] = []
        var stop = found.stop
        var round = found.round
        var startStop: Int32 = -1
        while round > 0 {
            let label = scratch.rides[round * stopCount + Int(stop)]
            guard label.trip >= 0 else { return nil }
            let ride = makeRide(label, days: days, overlay: overlay)
            rides.append(ride)
            if targetSide == nil { targetSide = label }
            startSide = label
            let link = round - 1  // a ride hops on only where the round before made a stop ready
            let hopOn = D.hopOnStop(ride)
            switch scratch.parents[link * stopCount + Int(hopOn)] {
            case .endpoint: startStop = hopOn
            case .sameStop:
                transfers.append(D.transfer(linking: hopOn, to: hopOn, seconds: Int(timetable.changeSeconds[Int(hopOn)])))
                stop = hopOn
            case .footpath(let previous, let hop):
                transfers.append(D.transfer(linking: hopOn, to: previous, seconds: Int(D.footHops(of: self).hops[Int(hop)].seconds)))
                stop = previous
            case .none: return nil
            }
            round = link
        }
        guard startStop >= 0, !rides.isEmpty,
              let walk = start.filter({ $0.stop == startStop }).map(\.seconds).min() else { return nil }
        let built = D.journey(rides: rides, transfers: transfers, start: Endpoint(stop: startStop, seconds: walk),
                              target: Endpoint(stop: found.stop, seconds: scratch.targetSeconds[Int(found.stop)]), time: found.time)
        guard let startSide, let targetSide else { return built }
        let (first, last) = D.accessAndEgress(start: startSide, target: targetSide)
        let walks = EndWalks(parents: scratch.parents, start: start, targetSeconds: scratch.targetSeconds,
                             startIsAccess: D.accessAndEgress(start: true, target: false).access)
        return boardingTheTripsNearestEnds(built, first: first, last: last, walks: walks, days: days, overlay: overlay,
                                           stopMask: stopMask, arrivingBy: deadline)
    }

    /// The ride a label stands for; a live run's keeps the timetable's pattern, trip and call
    /// indexes (its stops are the same), with its live times and the timetable's beside them.
    func makeRide(_ label: RideLabel, days: [ServiceDay], overlay: RealtimeOverlay) -> Ride {
        let tt = timetable
        let day = days[Int(label.day)]
        let ref = day.reference
        let live = Int(label.pattern) - tt.patterns.count
        let pattern = live >= 0 ? overlay.patterns.patterns[live] : tt.patterns[Int(label.pattern)]
        let n = Int(pattern.stopCount)
        let base = Int(pattern.timesStart) + Int(label.trip) * n
        let times = live >= 0 ? overlay.patterns : staticPatterns
        var ride = Ride(pattern: label.pattern, trip: pattern.firstTrip + label.trip,
                        boardIndex: label.boardIndex, alightIndex: label.alightIndex,
                        boardStop: times.stops[Int(pattern.stopsStart) + Int(label.boardIndex)],
                        alightStop: times.stops[Int(pattern.stopsStart) + Int(label.alightIndex)],
                        departure: ref + Int(times.departures[base + Int(label.boardIndex)]),
                        arrival: ref + Int(times.arrivals[base + Int(label.alightIndex)]), day: day.day)
        if live >= 0 {
            let trip = overlay.baseTrips[Int(ride.trip)]
            let basePattern = tt.patterns[Int(overlay.basePatterns[live])]
            let scheduled = Int(basePattern.timesStart) + (Int(trip) - Int(basePattern.firstTrip)) * n
            ride.pattern = overlay.basePatterns[live]
            ride.trip = trip
            ride.scheduledDeparture = ref + Int(tt.departures[scheduled + Int(label.boardIndex)])
            ride.scheduledArrival = ref + Int(tt.arrivals[scheduled + Int(label.alightIndex)])
        }
        return ride
    }
}
