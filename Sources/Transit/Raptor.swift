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
/// Arrive-by runs the same rounds backwards from the deadline (latest departure).
struct Raptor {
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
    /// Footpath seconds per edge at this query's pace.
    let footSeconds: [Int]

    init(timetable: Timetable, paceMultiplier: Double) {
        self.timetable = timetable
        var seconds = [Int](repeating: 0, count: timetable.footTargets.count)
        for e in seconds.indices {
            let walk = (Double(timetable.footWalkSeconds[e]) * paceMultiplier).rounded(.up)
            seconds[e] = max(Int(walk), Int(timetable.footMinimumSeconds[e]))
        }
        footSeconds = seconds
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

    // MARK: - Labels

    private enum Parent: Equatable {
        case none
        case endpoint
        case sameStop
        case footpath(stop: Int32, edge: Int32)
    }

    private struct RideLabel {
        var pattern: Int32 = -1
        var trip: Int32 = -1
        var day: Int32 = 0
        var boardIndex: Int32 = 0
        var alightIndex: Int32 = 0
        var linkRound: Int32 = 0
    }

    /// Earliest arrival leaving at `time`, one journey per number of rides that improves
    /// on fewer rides (the Pareto set over arrival and transfers), fewest rides first.
    /// - parameter horizon: seconds; journeys arriving later than `time + horizon` are not searched.
    func departAt(_ time: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon) -> [Journey] {
        let tt = timetable
        let stopCount = tt.stops.count
        let never = Int.max
        var ready = [Int](repeating: never, count: stopCount)
        var readyRound = [Int32](repeating: 0, count: stopCount)
        var arrived = [Int](repeating: never, count: stopCount)
        var readyParents = [[Parent]](repeating: [], count: maxRides + 1)
        var rideLabels = [[RideLabel]](repeating: [], count: maxRides + 1)
        var egressSeconds = [Int](repeating: -1, count: stopCount)
        for e in egress where egressSeconds[Int(e.stop)] < 0 || e.seconds < egressSeconds[Int(e.stop)] {
            egressSeconds[Int(e.stop)] = e.seconds
        }
        var marked = [Bool](repeating: false, count: stopCount)
        var markedList: [Int32] = []
        readyParents[0] = [Parent](repeating: .none, count: stopCount)
        for a in access where time + a.seconds < ready[Int(a.stop)] {
            let s = Int(a.stop)
            ready[s] = time + a.seconds
            readyParents[0][s] = .endpoint
            if !marked[s] { marked[s] = true; markedList.append(a.stop) }
        }
        var best = time + horizon
        var targets: [(round: Int, stop: Int32, arrival: Int)] = []
        var queueIndex = [Int32](repeating: -1, count: tt.patterns.count)
        var queued: [Int32] = []
        var improved = [Bool](repeating: false, count: stopCount)
        var improvedList: [Int32] = []

        for round in 1...max(1, maxRides) where !markedList.isEmpty {
            readyParents[round] = [Parent](repeating: .none, count: stopCount)
            rideLabels[round] = [RideLabel](repeating: RideLabel(), count: stopCount)
            for s in markedList {
                marked[Int(s)] = false
                for e in Int(tt.stopPatternStart[Int(s)])..<Int(tt.stopPatternStart[Int(s) + 1]) {
                    let p = Int(tt.stopPatternEntries[e]), i = tt.stopPatternIndexes[e]
                    if queueIndex[p] < 0 { queued.append(Int32(p)); queueIndex[p] = i } else if i < queueIndex[p] { queueIndex[p] = i }
                }
            }
            markedList.removeAll(keepingCapacity: true)

            for p32 in queued {
                let p = Int(p32)
                let start = Int(queueIndex[p])
                queueIndex[p] = -1
                let pattern = tt.patterns[p]
                let n = Int(pattern.stopCount), m = Int(pattern.tripCount)
                let stopsBase = Int(pattern.stopsStart), timesBase = Int(pattern.timesStart)
                for (dayIndex, day) in days.enumerated() {
                    let ref = day.reference
                    if ref + Int(pattern.maxTime) < time || ref + Int(pattern.minTime) >= best { continue }
                    var trip = -1
                    var boardIndex = 0
                    var linkRound: Int32 = 0
                    for i in start..<n {
                        let s = Int(tt.patternStops[stopsBase + i])
                        let flags = tt.patternFlags[stopsBase + i]
                        if trip >= 0 && flags & Timetable.canAlight != 0 {
                            let a = ref + Int(tt.arrivals[timesBase + trip * n + i])
                            if a < arrived[s] && a < best {
                                arrived[s] = a
                                rideLabels[round][s] = RideLabel(pattern: p32, trip: Int32(trip), day: Int32(dayIndex),
                                                                 boardIndex: Int32(boardIndex), alightIndex: Int32(i), linkRound: linkRound)
                                if !improved[s] { improved[s] = true; improvedList.append(Int32(s)) }
                            }
                        }
                        let r = ready[s]
                        guard flags & Timetable.canBoard != 0, r != never else { continue }
                        let local = r - ref
                        if trip >= 0 && local > Int(tt.departures[timesBase + trip * n + i]) { continue }
                        // Earliest running trip departing at or after `local`, before the current one.
                        var low = 0, high = trip >= 0 ? trip : m
                        while low < high {
                            let mid = (low + high) / 2
                            if Int(tt.departures[timesBase + mid * n + i]) < local { low = mid + 1 } else { high = mid }
                        }
                        let limit = trip >= 0 ? trip : m
                        var candidate = low
                        while candidate < limit && !day.active[Int(tt.tripServices[Int(pattern.firstTrip) + candidate])] {
                            candidate += 1
                        }
                        if candidate < limit {
                            trip = candidate
                            boardIndex = i
                            linkRound = readyRound[s]
                        }
                    }
                }
            }
            queued.removeAll(keepingCapacity: true)

            // Alight: reach the destination, change at the stop, or walk a footpath.
            let bestBefore = best
            var bestStop: Int32 = -1
            for s32 in improvedList {
                let s = Int(s32)
                improved[s] = false
                let a = arrived[s]
                guard rideLabels[round][s].trip >= 0 else { continue }
                if egressSeconds[s] >= 0 && a + egressSeconds[s] < best {
                    best = a + egressSeconds[s]
                    bestStop = s32
                }
                if tt.changeSeconds[s] >= 0 && a + Int(tt.changeSeconds[s]) < ready[s] {
                    ready[s] = a + Int(tt.changeSeconds[s])
                    readyRound[s] = Int32(round)
                    readyParents[round][s] = .sameStop
                    if !marked[s] { marked[s] = true; markedList.append(s32) }
                }
                for e in Int(tt.footStart[s])..<Int(tt.footStart[s + 1]) {
                    let q = Int(tt.footTargets[e])
                    let r = a + footSeconds[e]
                    if r < ready[q] {
                        ready[q] = r
                        readyRound[q] = Int32(round)
                        readyParents[round][q] = .footpath(stop: s32, edge: Int32(e))
                        if !marked[q] { marked[q] = true; markedList.append(Int32(q)) }
                    }
                }
            }
            improvedList.removeAll(keepingCapacity: true)
            if best < bestBefore { targets.append((round, bestStop, best)) }
        }

        // Rebuild each Pareto journey from its labels.
        return targets.compactMap { target in
            var rides: [Ride] = []
            var transfers: [Transfer] = []
            var stop = target.stop
            var round = target.round
            var accessStop: Int32 = -1
            while round > 0 {
                let label = rideLabels[round][Int(stop)]
                guard label.trip >= 0 else { return nil }
                let ride = makeRide(label, days: days)
                rides.insert(ride, at: 0)
                let link = Int(label.linkRound)
                switch readyParents[link][Int(ride.boardStop)] {
                case .endpoint: accessStop = ride.boardStop
                case .sameStop:
                    transfers.insert(Transfer(from: ride.boardStop, to: ride.boardStop, seconds: Int(tt.changeSeconds[Int(ride.boardStop)])), at: 0)
                    stop = ride.boardStop
                case .footpath(let from, let edge):
                    transfers.insert(Transfer(from: from, to: ride.boardStop, seconds: footSeconds[Int(edge)]), at: 0)
                    stop = from
                case .none: return nil
                }
                round = link
            }
            guard accessStop >= 0, let first = rides.first,
                  let accessWalk = access.filter({ $0.stop == accessStop }).map(\.seconds).min() else { return nil }
            return Journey(departure: first.departure - accessWalk, arrival: target.arrival,
                           access: Endpoint(stop: accessStop, seconds: accessWalk),
                           egress: Endpoint(stop: target.stop, seconds: egressSeconds[Int(target.stop)]),
                           rides: rides, transfers: transfers)
        }
    }

    /// Latest departure still arriving by `deadline`; one journey per number of rides that
    /// improves on fewer rides, fewest rides first.
    /// - parameter horizon: seconds; journeys leaving earlier than `deadline - horizon` are not searched.
    func arriveBy(_ deadline: Int, access: [Endpoint], egress: [Endpoint], days: [ServiceDay], maxRides: Int,
                  horizon: Int = Raptor.defaultHorizon) -> [Journey] {
        let tt = timetable
        let stopCount = tt.stops.count
        let never = Int.min
        var alightBy = [Int](repeating: never, count: stopCount)
        var alightRound = [Int32](repeating: 0, count: stopCount)
        var boarded = [Int](repeating: never, count: stopCount)
        var alightParents = [[Parent]](repeating: [], count: maxRides + 1)
        var rideLabels = [[RideLabel]](repeating: [], count: maxRides + 1)
        var accessSeconds = [Int](repeating: -1, count: stopCount)
        for a in access where accessSeconds[Int(a.stop)] < 0 || a.seconds < accessSeconds[Int(a.stop)] {
            accessSeconds[Int(a.stop)] = a.seconds
        }
        var marked = [Bool](repeating: false, count: stopCount)
        var markedList: [Int32] = []
        alightParents[0] = [Parent](repeating: .none, count: stopCount)
        for e in egress where deadline - e.seconds > alightBy[Int(e.stop)] {
            let s = Int(e.stop)
            alightBy[s] = deadline - e.seconds
            alightParents[0][s] = .endpoint
            if !marked[s] { marked[s] = true; markedList.append(e.stop) }
        }
        var best = deadline - horizon
        var origins: [(round: Int, stop: Int32, departure: Int)] = []
        var queueIndex = [Int32](repeating: -1, count: tt.patterns.count)
        var queued: [Int32] = []
        var improved = [Bool](repeating: false, count: stopCount)
        var improvedList: [Int32] = []

        for round in 1...max(1, maxRides) where !markedList.isEmpty {
            alightParents[round] = [Parent](repeating: .none, count: stopCount)
            rideLabels[round] = [RideLabel](repeating: RideLabel(), count: stopCount)
            for s in markedList {
                marked[Int(s)] = false
                for e in Int(tt.stopPatternStart[Int(s)])..<Int(tt.stopPatternStart[Int(s) + 1]) {
                    let p = Int(tt.stopPatternEntries[e]), i = tt.stopPatternIndexes[e]
                    if queueIndex[p] < 0 { queued.append(Int32(p)); queueIndex[p] = i } else if i > queueIndex[p] { queueIndex[p] = i }
                }
            }
            markedList.removeAll(keepingCapacity: true)

            for p32 in queued {
                let p = Int(p32)
                let start = Int(queueIndex[p])
                queueIndex[p] = -1
                let pattern = tt.patterns[p]
                let n = Int(pattern.stopCount), m = Int(pattern.tripCount)
                let stopsBase = Int(pattern.stopsStart), timesBase = Int(pattern.timesStart)
                for (dayIndex, day) in days.enumerated().reversed() {
                    let ref = day.reference
                    if ref + Int(pattern.minTime) > deadline || ref + Int(pattern.maxTime) <= best { continue }
                    var trip = -1
                    var alightIndex = 0
                    var linkRound: Int32 = 0
                    for i in stride(from: start, through: 0, by: -1) {
                        let s = Int(tt.patternStops[stopsBase + i])
                        let flags = tt.patternFlags[stopsBase + i]
                        if trip >= 0 && flags & Timetable.canBoard != 0 {
                            let b = ref + Int(tt.departures[timesBase + trip * n + i])
                            if b > boarded[s] && b > best {
                                boarded[s] = b
                                rideLabels[round][s] = RideLabel(pattern: p32, trip: Int32(trip), day: Int32(dayIndex),
                                                                 boardIndex: Int32(i), alightIndex: Int32(alightIndex), linkRound: linkRound)
                                if !improved[s] { improved[s] = true; improvedList.append(Int32(s)) }
                            }
                        }
                        let r = alightBy[s]
                        guard flags & Timetable.canAlight != 0, r != never else { continue }
                        let local = r - ref
                        if trip >= 0 && local < Int(tt.arrivals[timesBase + trip * n + i]) { continue }
                        // Latest running trip arriving at or before `local`, after the current one.
                        let floor = trip >= 0 ? trip + 1 : 0
                        var low = floor, high = m
                        while low < high {
                            let mid = (low + high) / 2
                            if Int(tt.arrivals[timesBase + mid * n + i]) <= local { low = mid + 1 } else { high = mid }
                        }
                        var candidate = low - 1
                        while candidate >= floor && !day.active[Int(tt.tripServices[Int(pattern.firstTrip) + candidate])] {
                            candidate -= 1
                        }
                        if candidate >= floor {
                            trip = candidate
                            alightIndex = i
                            linkRound = alightRound[s]
                        }
                    }
                }
            }
            queued.removeAll(keepingCapacity: true)

            let bestBefore = best
            var bestStop: Int32 = -1
            for s32 in improvedList {
                let s = Int(s32)
                improved[s] = false
                let b = boarded[s]
                guard rideLabels[round][s].trip >= 0 else { continue }
                if accessSeconds[s] >= 0 && b - accessSeconds[s] > best {
                    best = b - accessSeconds[s]
                    bestStop = s32
                }
                if tt.changeSeconds[s] >= 0 && b - Int(tt.changeSeconds[s]) > alightBy[s] {
                    alightBy[s] = b - Int(tt.changeSeconds[s])
                    alightRound[s] = Int32(round)
                    alightParents[round][s] = .sameStop
                    if !marked[s] { marked[s] = true; markedList.append(s32) }
                }
                for k in Int(tt.footInStart[s])..<Int(tt.footInStart[s + 1]) {
                    let q = Int(tt.footInSources[k]), e = Int(tt.footInEdge[k])
                    let r = b - footSeconds[e]
                    if r > alightBy[q] {
                        alightBy[q] = r
                        alightRound[q] = Int32(round)
                        alightParents[round][q] = .footpath(stop: s32, edge: Int32(e))
                        if !marked[q] { marked[q] = true; markedList.append(Int32(q)) }
                    }
                }
            }
            improvedList.removeAll(keepingCapacity: true)
            if best > bestBefore { origins.append((round, bestStop, best)) }
        }

        return origins.compactMap { origin in
            var rides: [Ride] = []
            var transfers: [Transfer] = []
            var stop = origin.stop
            var round = origin.round
            var egressStop: Int32 = -1
            while round > 0 {
                let label = rideLabels[round][Int(stop)]
                guard label.trip >= 0 else { return nil }
                let ride = makeRide(label, days: days)
                rides.append(ride)
                let link = Int(label.linkRound)
                switch alightParents[link][Int(ride.alightStop)] {
                case .endpoint: egressStop = ride.alightStop
                case .sameStop:
                    transfers.append(Transfer(from: ride.alightStop, to: ride.alightStop, seconds: Int(tt.changeSeconds[Int(ride.alightStop)])))
                    stop = ride.alightStop
                case .footpath(let to, let edge):
                    transfers.append(Transfer(from: ride.alightStop, to: to, seconds: footSeconds[Int(edge)]))
                    stop = to
                case .none: return nil
                }
                round = link
            }
            guard egressStop >= 0, let last = rides.last,
                  let egressWalk = egress.filter({ $0.stop == egressStop }).map(\.seconds).min() else { return nil }
            return Journey(departure: origin.departure, arrival: last.arrival + egressWalk,
                           access: Endpoint(stop: origin.stop, seconds: accessSeconds[Int(origin.stop)]),
                           egress: Endpoint(stop: egressStop, seconds: egressWalk),
                           rides: rides, transfers: transfers)
        }
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
