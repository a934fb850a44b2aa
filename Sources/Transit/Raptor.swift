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
struct Raptor: Sendable {
    struct Endpoint: Hashable, Sendable {
        var stop: Int32
        var seconds: Int
    }

    /// A service day considered by a query: its day number, reference instant and which
    /// services run on it.
    struct ServiceDay {
        var day: Int
        var reference: Int
        var active: [Bool]
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
    /// Footpath seconds per edge at this engine's pace.
    let footSeconds: [Int]
    /// Working arrays reused across queries (and shared by engines of one timetable).
    let scratchPool: RaptorScratchPool

    /// An engine for one walking pace; build it once per timetable and pace, not per query.
    init(timetable: Timetable, paceMultiplier: Double, scratchPool: RaptorScratchPool = RaptorScratchPool()) {
        self.timetable = timetable
        var seconds = [Int](repeating: 0, count: timetable.footTargets.count)
        for e in seconds.indices {
            let walk = (Double(timetable.footWalkSeconds[e]) * paceMultiplier).rounded(.up)
            seconds[e] = max(Int(walk), Int(timetable.footMinimumSeconds[e]))
        }
        footSeconds = seconds
        self.scratchPool = scratchPool
    }

    /// The service days around a local day (previous, same, next), so that trips past
    /// midnight of the day before and early trips of the next day are both seen.
    static func serviceDays(around day: Int, timetable: Timetable) -> [ServiceDay] {
        let zone = timetable.timeZone
        return (day - 1...day + 1).map { d in
            ServiceDay(day: d, reference: ServiceDate.referenceInstant(d, in: zone),
                       active: timetable.services.map { $0.runs(on: d) })
        }
    }

    // MARK: - Searching

    /// Earliest arrival leaving at `time`, one journey per number of rides that improves
    /// on fewer rides (the Pareto set over arrival and transfers), fewest rides first.
    /// - parameter horizon: seconds; journeys arriving later than `time + horizon` are not searched.
    func departAt(_ time: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon) -> [Journey] {
        search(Forward.self, from: time, access: access, egress: egress, days: days, maxRides: maxRides, horizon: horizon)
    }

    /// Latest departure still arriving by `deadline`; one journey per number of rides that
    /// improves on fewer rides, fewest rides first.
    /// - parameter horizon: seconds; journeys leaving earlier than `deadline - horizon` are not searched.
    func arriveBy(_ deadline: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon) -> [Journey] {
        search(Backward.self, from: deadline, access: access, egress: egress, days: days, maxRides: maxRides, horizon: horizon)
    }

    /// The rounds in `direction` from `time`, on a scratch taken from the pool and given back clean.
    private func search<D: SearchDirection>(_ direction: D.Type, from time: Int, access: [Endpoint], egress: [Endpoint],
                                            days: [ServiceDay], maxRides: Int, horizon: Int) -> [Journey] {
        var scratch = scratchPool.take(D.self, stopCount: timetable.stops.count, patternCount: timetable.patterns.count)
        let rounds = max(1, maxRides)
        scratch.reserveRounds(rounds + 1)
        let (start, target) = D.ends(access: access, egress: egress)
        let found = runRounds(D.self, from: time, start: start, target: target, days: days, rounds: rounds,
                              horizon: horizon, scratch: &scratch)
        let journeys = found.compactMap { journey(D.self, reaching: $0, start: start, days: days, scratch: scratch) }
        scratch.reset(roundsUsed: rounds + 1, targets: target)
        scratchPool.giveBack(scratch)
        return journeys
    }

    /// A round and stop where the search reached the target better than with fewer rides.
    private struct TargetReached {
        var round: Int
        var stop: Int32
        var time: Int
    }

    /// Round k finds the best times with k rides: it scans each pattern serving a stop
    /// improved in round k - 1, from the first such stop in scan order, then follows the
    /// changes and footpaths from the stops it improved.
    private func runRounds<D: SearchDirection>(_ direction: D.Type, from time: Int, start: [Endpoint], target: [Endpoint],
                                               days: [ServiceDay], rounds: Int, horizon: Int,
                                               scratch: inout RaptorScratch) -> [TargetReached] {
        let tt = timetable
        let stopCount = tt.stops.count
        let unreached = D.unreached
        let hopOnTimes = D.hopOnTimes(tt), hopOffTimes = D.hopOffTimes(tt)
        let foot = D.footRows(tt)
        for e in target where scratch.targetSeconds[Int(e.stop)] < 0 || e.seconds < scratch.targetSeconds[Int(e.stop)] {
            scratch.targetSeconds[Int(e.stop)] = e.seconds
        }
        for a in start where D.isBefore(D.plus(time, a.seconds), scratch.ready[Int(a.stop)]) {
            let s = Int(a.stop)
            if scratch.ready[s] == unreached { scratch.touched.append(a.stop) }
            scratch.ready[s] = D.plus(time, a.seconds)
            scratch.readyRound[s] = 0
            scratch.parents[s] = .endpoint
            if !scratch.marked[s] { scratch.marked[s] = true; scratch.markedList.append(a.stop) }
        }
        var best = D.plus(time, horizon)
        var reachedTarget: [TargetReached] = []

        for round in 1...rounds where !scratch.markedList.isEmpty {
            let labels = round * stopCount
            // Queue each pattern serving a marked stop, from its first marked stop in scan order.
            for s in scratch.markedList {
                scratch.marked[Int(s)] = false
                for e in Int(tt.stopPatternStart[Int(s)])..<Int(tt.stopPatternStart[Int(s) + 1]) {
                    let p = Int(tt.stopPatternEntries[e]), i = tt.stopPatternIndexes[e]
                    if scratch.queueIndex[p] < 0 {
                        scratch.queued.append(Int32(p))
                        scratch.queueIndex[p] = i
                    } else if D.scansBefore(i, scratch.queueIndex[p]) {
                        scratch.queueIndex[p] = i
                    }
                }
            }
            scratch.markedList.removeAll(keepingCapacity: true)

            // Ride: hop off where the current trip improves a stop, hop on a better trip where ready.
            for p32 in scratch.queued {
                let p = Int(p32)
                let from = Int(scratch.queueIndex[p])
                scratch.queueIndex[p] = -1
                let pattern = tt.patterns[p]
                let n = Int(pattern.stopCount), m = Int(pattern.tripCount)
                let stopsBase = Int(pattern.stopsStart), timesBase = Int(pattern.timesStart)
                let firstTrip = Int(pattern.firstTrip)
                let span = D.span(pattern)
                for dayIndex in D.scan(from: D.first(count: days.count), count: days.count) {
                    let day = days[dayIndex]
                    let ref = day.reference
                    if D.isBefore(ref + span.last, time) || !D.isBefore(ref + span.first, best) { continue }
                    var trip = -1
                    var hopOnIndex = 0
                    var linkRound: Int32 = 0
                    for i in D.scan(from: from, count: n) {
                        let s = Int(tt.patternStops[stopsBase + i])
                        let flags = tt.patternFlags[stopsBase + i]
                        if trip >= 0 && flags & D.hopOffFlag != 0 {
                            let t = ref + Int(hopOffTimes[timesBase + trip * n + i])
                            if D.isBefore(t, scratch.reached[s]) && D.isBefore(t, best) {
                                if scratch.reached[s] == unreached { scratch.touched.append(Int32(s)) }
                                scratch.reached[s] = t
                                let indexes = D.rideIndexes(hopOn: hopOnIndex, hopOff: i)
                                scratch.rides[labels + s] = RideLabel(pattern: p32, trip: Int32(trip), day: Int32(dayIndex),
                                                                      boardIndex: Int32(indexes.board),
                                                                      alightIndex: Int32(indexes.alight), linkRound: linkRound)
                                if !scratch.improved[s] { scratch.improved[s] = true; scratch.improvedList.append(Int32(s)) }
                            }
                        }
                        let r = scratch.ready[s]
                        guard flags & D.hopOnFlag != 0, r != unreached else { continue }
                        let local = r - ref
                        if trip >= 0 && D.isBefore(Int(hopOnTimes[timesBase + trip * n + i]), local) { continue }
                        let active = day.active
                        if let better = D.catchableTrip(after: local, current: trip, count: m, times: hopOnTimes,
                                                        base: timesBase + i, stride: n,
                                                        runs: { active[Int(tt.tripServices[firstTrip + $0])] }) {
                            trip = better
                            hopOnIndex = i
                            linkRound = scratch.readyRound[s]
                        }
                    }
                }
            }
            scratch.queued.removeAll(keepingCapacity: true)

            // Transfer: reach the target, change at the stop, or walk one footpath.
            let bestBefore = best
            var bestStop: Int32 = -1
            for s32 in scratch.improvedList {
                let s = Int(s32)
                scratch.improved[s] = false
                let t = scratch.reached[s]
                guard scratch.rides[labels + s].trip >= 0 else { continue }
                if scratch.targetSeconds[s] >= 0 && D.isBefore(D.plus(t, scratch.targetSeconds[s]), best) {
                    best = D.plus(t, scratch.targetSeconds[s])
                    bestStop = s32
                }
                let change = Int(tt.changeSeconds[s])
                if change >= 0 && D.isBefore(D.plus(t, change), scratch.ready[s]) {
                    if scratch.ready[s] == unreached { scratch.touched.append(s32) }
                    scratch.ready[s] = D.plus(t, change)
                    scratch.readyRound[s] = Int32(round)
                    scratch.parents[labels + s] = .sameStop
                    if !scratch.marked[s] { scratch.marked[s] = true; scratch.markedList.append(s32) }
                }
                for k in Int(foot.start[s])..<Int(foot.start[s + 1]) {
                    let q = Int(foot.neighbours[k]), e = D.edge(k, foot.edges)
                    let r = D.plus(t, footSeconds[e])
                    if D.isBefore(r, scratch.ready[q]) {
                        if scratch.ready[q] == unreached { scratch.touched.append(Int32(q)) }
                        scratch.ready[q] = r
                        scratch.readyRound[q] = Int32(round)
                        scratch.parents[labels + q] = .footpath(stop: s32, edge: Int32(e))
                        if !scratch.marked[q] { scratch.marked[q] = true; scratch.markedList.append(Int32(q)) }
                    }
                }
            }
            scratch.improvedList.removeAll(keepingCapacity: true)
            if D.isBefore(best, bestBefore) { reachedTarget.append(TargetReached(round: round, stop: bestStop, time: best)) }
        }
        return reachedTarget
    }

    /// Rebuilds the journey that reached the target from its labels, walking back from the
    /// target to the start.
    private func journey<D: SearchDirection>(_ direction: D.Type, reaching found: TargetReached, start: [Endpoint],
                                             days: [ServiceDay], scratch: RaptorScratch) -> Journey? {
        let stopCount = timetable.stops.count
        var rides: [Ride] = []
        var transfers: [Transfer] = []
        var stop = found.stop
        var round = found.round
        var startStop: Int32 = -1
        while round > 0 {
            let label = scratch.rides[round * stopCount + Int(stop)]
            guard label.trip >= 0 else { return nil }
            let ride = makeRide(label, days: days)
            rides.append(ride)
            let link = Int(label.linkRound)
            let hopOn = D.hopOnStop(ride)
            switch scratch.parents[link * stopCount + Int(hopOn)] {
            case .endpoint: startStop = hopOn
            case .sameStop:
                transfers.append(D.transfer(linking: hopOn, to: hopOn, seconds: Int(timetable.changeSeconds[Int(hopOn)])))
                stop = hopOn
            case .footpath(let previous, let edge):
                transfers.append(D.transfer(linking: hopOn, to: previous, seconds: footSeconds[Int(edge)]))
                stop = previous
            case .none: return nil
            }
            round = link
        }
        guard startStop >= 0, !rides.isEmpty,
              let walk = start.filter({ $0.stop == startStop }).map(\.seconds).min() else { return nil }
        return D.journey(rides: rides, transfers: transfers, start: Endpoint(stop: startStop, seconds: walk),
                         target: Endpoint(stop: found.stop, seconds: scratch.targetSeconds[Int(found.stop)]), time: found.time)
    }

    private func makeRide(_ label: RideLabel, days: [ServiceDay]) -> Ride {
        let tt = timetable
        let pattern = tt.patterns[Int(label.pattern)]
        let n = Int(pattern.stopCount)
        let base = Int(pattern.timesStart) + Int(label.trip) * n
        let ref = days[Int(label.day)].reference
        return Ride(pattern: label.pattern, trip: pattern.firstTrip + label.trip,
                    boardIndex: label.boardIndex, alightIndex: label.alightIndex,
                    boardStop: tt.patternStops[Int(pattern.stopsStart) + Int(label.boardIndex)],
                    alightStop: tt.patternStops[Int(pattern.stopsStart) + Int(label.alightIndex)],
                    departure: ref + Int(tt.departures[base + Int(label.boardIndex)]),
                    arrival: ref + Int(tt.arrivals[base + Int(label.alightIndex)]))
    }
}
