import Foundation

extension Planner {
    /// A stop of a ride's trip the plan could walk to (from) instead: the call, and the walk's
    /// time: estimated from the walk now, scaled by the two straight lines, until the streets
    /// are asked (`walkedOnTheStreets`).
    private struct TripStop {
        var call: TripCall
        var estimate: TimeInterval
    }

    /// How many stops of a trip, nearest by the estimate first, have their walks asked of the
    /// streets: each is a street query, and the estimate errs by tens of percent, not more.
    static let tripStopsAskedOnTheStreets = 3

    /// Once transit segment `index` is asked and its stops adopted, its rides are known, and the
    /// stops the planner inferred for it are chosen again from their trips (issue 39, no walk to
    /// a farther stop of the same trip): the boarding stop becomes the stop of the first ride's
    /// trip, before where it alights, that the traveller catches and leaves the place across the
    /// walk latest for (free until the walk starts: the origin going forward, any place timed
    /// back), else the shortest walk (`nearerBoarding`); the alighting stop the stop of the last
    /// ride's trip, after where it boards, that gets them to the place after it in time and
    /// earliest (free once there: any place going forward, the destination timed back), else the
    /// shortest walk (`nearerAlighting`). The engine chose them from the stop it
    /// was asked from, timing walks as a stretched straight line: `plan insert … Koskikeskus`
    /// walked 601 m to Rautatieasema B for tram 3 where the same trip stops two minutes earlier
    /// at Koskipuisto B, 514 m away and caught. The walks to the other stops are estimated from
    /// the walk now, and the few shorter by the estimate walked on the streets
    /// (`walkedOnTheStreets`); a stop chosen by those walks is kept only when the ride asked to
    /// it (`keeps`) and the walk asked to it are better in fact. The walks beside the ride are
    /// asked here when the loop has not yet (it keeps them). Only for a ride the edit emptied
    /// (`newRide`) or beside a walk this run asks: a ride only timed again beside walks kept
    /// goes from (to) stops the rule chose before (a stay retimes the rides after it and asks no
    /// walk). Pinned rides, a walk route the user chose, a stay at the stop and the nodes the
    /// user chose keep their stops.
    func choosingTheTripsNearestStops(ofSegment index: Int, passedWalkFrom time: Date?, forward: Bool, askedAt: Date,
                                      newRide: Bool, run: inout LegRun) async throws {
        guard run.plan.modes[index] == .transit, !run.plan.isPinned(segment: index), let leg = run.plan.legs[index],
              let first = leg.rides.first, let last = leg.rides.last else { return }
        // A ride the edit emptied, or a walk this run asks (or asked): new, or to a stop just
        // adopted. A ride only timed again beside walks kept goes from (to) stops this rule chose.
        let (asked, legs) = (run.asked, run.plan.legs)
        let asks = { (walk: Int) in newRide || asked.contains(walk) || legs[walk] == nil }
        let boardingCalls = index > 0 && Self.isTheirsToChoose(node: index, besides: index - 1, in: run.plan)
            && !leg.walksToAnotherStop(at: .access) && asks(index - 1) ? await routing.calls(ofTripOf: first) : []
        let choosesAlighting = index + 2 < run.plan.nodes.count && Self.isTheirsToChoose(node: index + 1, besides: index + 1, in: run.plan)
            && !leg.walksToAnotherStop(at: .egress) && asks(index + 1)
        // One ride: its trip's calls are asked once for both ends.
        let alightingCalls = !choosesAlighting ? [] : leg.rides.count == 1 && !boardingCalls.isEmpty ? boardingCalls
            : await routing.calls(ofTripOf: last)
        guard boardingCalls.count > 2 || alightingCalls.count > 2 else { return }
        if boardingCalls.count > 2, run.plan.legs[index - 1] == nil { try await fill(index - 1, .arriveBy(leg.departure ?? askedAt), run: &run) }
        if alightingCalls.count > 2, run.plan.legs[index + 1] == nil { try await fill(index + 1, .departAt(leg.arrival ?? askedAt), run: &run) }
        let before = run.plan, failuresBefore = run.failures
        // Free across the walk, the traveller leaves as late (gets there as early) as the trip
        // allows; where the run fixed when they are at the place across it, the walk is shortest.
        let leavesFreely = !forward || index == 1, arrivesFreely = forward || index + 2 == run.plan.nodes.count - 1
        let boarding = boardingCalls.count > 2
            ? try await nearerBoarding(boardingCalls, of: first, segment: index, in: before, earliest: forward ? time : nil,
                                       leavingLatest: leavesFreely) : nil
        let alighting = alightingCalls.count > 2
            ? try await nearerAlighting(alightingCalls, of: last, segment: index, in: before, latest: forward ? nil : time,
                                        arrivingEarliest: arrivesFreely) : nil
        guard boarding != nil || alighting != nil else { return }
        var plan = before
        if let boarding {
            guard plan.replacingNode(index, with: boarding.call.place) else { return }
            plan.legs[index - 1] = nil
        }
        if let alighting {
            guard plan.replacingNode(index + 1, with: alighting.call.place) else { return }
            plan.legs[index + 1] = nil
        }
        plan.legs[index] = nil
        // Asked first as the run asks it, from (to) the chosen stops: going forward, leaving when
        // the traveller gets to the boarding stop; timed back, arriving when they must leave the
        // alighting one. The engine may answer from a stop nearby instead: then asked at the
        // chosen call itself, leaving from it (else arriving at it), which finds that trip.
        // A stop kept is asked from when the traveller is there now: adopted since `askedAt`, a
        // boarding stop farther from the origin is reached later (session 58: adopted Koskipuisto D,
        // a 627 s walk where Tampella was 103 s, the ride to the alighting stop chosen was asked
        // from Tampella's time and bus 5 left 5 minutes before the traveller got there).
        let atTheStopKept: Date = if forward, index > 0, let time, let walk = before.legs[index - 1] {
            max(askedAt, before.nodes[index].leaving(arrivedAt: time.addingTimeInterval(walk.expectedTravelTime)))
        } else if !forward, index + 1 < before.segmentCount, let time, let walk = before.legs[index + 1] {
            min(askedAt, before.nodes[index + 1].latestArrival(leavingAt: time.addingTimeInterval(-walk.expectedTravelTime)))
        } else {
            askedAt
        }
        let asTheRunAsks: LegTiming = if forward {
            .departAt(boarding.map { call in time.map { $0.addingTimeInterval(call.estimate) } ?? call.call.departure } ?? atTheStopKept)
        } else {
            .arriveBy(alighting.map { call in time.map { $0.addingTimeInterval(-call.estimate) } ?? call.call.arrival } ?? atTheStopKept)
        }
        let atTheCall: LegTiming = if let boarding { .departAt(boarding.call.departure) } else { .arriveBy(alighting?.call.arrival ?? askedAt) }
        var kept = false
        for (timing, leavingFixed) in [(asTheRunAsks, forward), (atTheCall, boarding != nil)] where !kept {
            run.plan = plan
            try await fill(index, timing, atItsStops: true, run: &run)
            kept = run.plan.legs[index].map {
                keeps($0, boarding: boarding?.call, alighting: alighting?.call, instead: leg, leavingFixed: leavingFixed)
            } ?? false
        }
        if kept, let asked = run.plan.legs[index], !asked.walksToAnotherStop(at: .access), !asked.walksToAnotherStop(at: .egress) {
            run.plan = run.plan.adoptingTransitStops(ofSegment: index).plan  // its 0 m walks trimmed, as an adopted leg's are
        } else if !kept, leg.rides.count > 1 || boarding == nil || alighting == nil {
            // Asked again, the engine may take another vehicle from the chosen stop, by its own
            // rules from there (a change that left over a minute later from the farther stop
            // leaves only a minute later from the nearer: bus 28 alone, not the same 90A and 13),
            // which the rule does not compare: the same trips are taken from the chosen calls.
            run.plan = plan
            run.plan.legs[index] = leg.ridingTheSameTrips(boardingAt: boarding?.call, alightingAt: alighting?.call)
            kept = true
        }
        // The new walks, asked at once: the stops stay only when they are preferred in fact (or
        // the ride asked again gets there earlier going forward, leaves later timed back) and the
        // ride is still caught (gets there in time).
        guard kept, let ride = run.plan.legs[index], let departure = ride.departure, let arrival = ride.arrival else {
            run.plan = before
            run.failures = failuresBefore
            return
        }
        if boarding != nil { try await fill(index - 1, forward ? .departAt(time ?? askedAt) : .arriveBy(departure), run: &run) }
        if alighting != nil { try await fill(index + 1, forward ? .departAt(arrival) : .arriveBy(time ?? arrival), run: &run) }
        func walk(_ segment: Int, in plan: RoutePlan) -> TimeInterval { plan.legs[segment]?.expectedTravelTime ?? .infinity }
        let withTheChosenStops = run.plan
        /// The boarding stop chosen stays when the ride asked from it gets there sooner as shown
        /// (an earlier minute) going forward, or its walk is preferred (`prefers`), and the ride is caught.
        func boardingStays() -> Bool {
            guard let old = before.legs[index - 1], let oldDeparture = leg.departure else { return true }
            let new = walk(index - 1, in: withTheChosenStops)
            let leaving = { (departure: Date, walk: TimeInterval) in departure.timeIntervalSinceReferenceDate - walk }
            let arrivesSooner = forward && ShownTime.minute(arrival) < ShownTime.minute(leg.arrival ?? .distantPast)
            let walkPreferred = Self.prefers(new, over: old.expectedTravelTime, lateness: leavesFreely
                                             ? leaving(departure, new) - leaving(oldDeparture, old.expectedTravelTime) : nil)
            let caught = !forward || (time ?? .distantPast).addingTimeInterval(new) <= departure.addingTimeInterval(RoutePlan.connectionSlack)
            return (arrivesSooner || walkPreferred) && caught
        }
        /// The alighting stop chosen stays when the ride asked to it leaves over a minute later
        /// timed back, or its walk is preferred, and the traveller is there in time.
        func alightingStays() -> Bool {
            guard let old = before.legs[index + 1], let oldArrival = leg.arrival else { return true }
            let new = walk(index + 1, in: withTheChosenStops)
            // When the traveller is there, as shown: arrivals in one shown minute are the same arrival.
            let there = { (arrival: Date, walk: TimeInterval) in TimeInterval(60 * ShownTime.minute(arrival.addingTimeInterval(walk))) }
            let leavesLater = !forward && departure > (leg.departure ?? .distantFuture).addingTimeInterval(Self.equalTimes)
            let walkPreferred = Self.prefers(new, over: old.expectedTravelTime, lateness: arrivesFreely
                                             ? there(oldArrival, old.expectedTravelTime) - there(arrival, new) : nil,
                                             equalWithin: 0)
            let inTime = forward || arrival.addingTimeInterval(new) <= (time ?? .distantFuture)
            return (leavesLater || walkPreferred) && inTime
        }
        let better = (boarding == nil || boardingStays()) && (alighting == nil || alightingStays())
        if !better {
            run.plan = before
            run.failures = failuresBefore
        }
    }

    /// Whether the ride asked between the chosen stops is kept instead of `leg`: it boards and
    /// leaves at the stops it was asked between (no walk to another) and, asked leaving at a
    /// time (`leavingFixed`), gets there no later than the call chosen to leave at (else than
    /// `leg`); asked arriving by one, leaves no earlier than the call chosen to board at (else
    /// than `leg`): the trip chosen, or one no worse.
    private func keeps(_ asked: RouteLeg, boarding: TripCall?, alighting: TripCall?, instead leg: RouteLeg, leavingFixed: Bool) -> Bool {
        guard let first = asked.rides.first, let last = asked.rides.last, let departure = asked.departure, let arrival = asked.arrival,
              !asked.walksToAnotherStop(at: .access) || leg.walksToAnotherStop(at: .access),
              !asked.walksToAnotherStop(at: .egress) || leg.walksToAnotherStop(at: .egress) else { return false }
        if let boarding, first.boarding.coordinate.distance(to: boarding.coordinate) > configuration.endIsStopMetres { return false }
        if let alighting, last.alighting.coordinate.distance(to: alighting.coordinate) > configuration.endIsStopMetres { return false }
        return leavingFixed ? arrival <= (alighting?.arrival ?? leg.arrival ?? .distantPast)
            : departure >= (boarding?.departure ?? leg.departure ?? .distantFuture)
    }

    /// For `choosingTheTripsNearestStops`: among `calls` (of `ride`'s trip), the stop before
    /// where it alights the traveller walks to from the place before node `index` instead of the
    /// stop it boards at (`preferred`): `leavingLatest`, the one they leave that place latest
    /// for, else the shortest walk; one they catch leaving that place at `earliest` (going
    /// forward: when the run gets there). The stops preferred by the estimate are walked on the
    /// streets (`walkedOnTheStreets`) and chosen by the walks asked.
    private func nearerBoarding(_ calls: [TripCall], of ride: TransitRide, segment index: Int, in plan: RoutePlan,
                                earliest: Date?, leavingLatest: Bool) async throws -> TripStop? {
        guard let walked = plan.legs[index - 1], walked.mode == .walk, let (boardAt, alightAt) = Self.calls(of: ride, in: calls)
        else { return nil }
        let from = plan.nodes[index - 1].place
        let now = from.coordinate.distance(to: plan.nodes[index].place.coordinate)
        let reached = { (position: Int) in
            TravellerEnds.reaches(calls[position].coordinate, askedFrom: plan.nodes[index].place.coordinate,
                                  place: from.coordinate, radius: self.configuration.rideReachRadius)
        }
        let estimated = (0..<alightAt).filter { $0 != boardAt && calls[$0].canBoard && reached($0) }.compactMap { position in
            Self.estimate(walked, now: now, to: from.coordinate.distance(to: calls[position].coordinate))
                .map { TripStop(call: calls[position], estimate: $0) }
        }
        let current = TripStop(call: calls[boardAt], estimate: walked.expectedTravelTime)
        let leaving: ((TripStop) -> TimeInterval)? = leavingLatest ? { $0.call.departure.timeIntervalSinceReferenceDate - $0.estimate } : nil
        let leavingNow = earliest ?? ride.boarding.time.addingTimeInterval(-walked.expectedTravelTime)
        let walks = try await walkedOnTheStreets(estimated, insteadOf: current, lateness: leaving, in: plan) {
            (from, $0.place, .departAt(leavingNow))
        }
        let caught = walks.filter { stop in earliest.map { $0.addingTimeInterval(stop.estimate) <= stop.call.departure } ?? true }
        return Self.preferred(caught, to: current, lateness: leaving)
    }

    /// The mirror for the alighting stop: among `calls`, the stop after where the ride boards
    /// the traveller walks from to the place after node `index + 1` (`arrivingEarliest`: the one
    /// that gets them there earliest, else the shortest walk) and that gets them there by
    /// `latest` (timed back: when they must be there); walked on the streets as
    /// `nearerBoarding`'s.
    private func nearerAlighting(_ calls: [TripCall], of ride: TransitRide, segment index: Int, in plan: RoutePlan,
                                 latest: Date?, arrivingEarliest: Bool) async throws -> TripStop? {
        guard let walked = plan.legs[index + 1], walked.mode == .walk, let (boardAt, alightAt) = Self.calls(of: ride, in: calls)
        else { return nil }
        let to = plan.nodes[index + 2].place
        let now = to.coordinate.distance(to: plan.nodes[index + 1].place.coordinate)
        let reached = { (position: Int) in
            TravellerEnds.reaches(calls[position].coordinate, askedFrom: plan.nodes[index + 1].place.coordinate,
                                  place: to.coordinate, radius: self.configuration.rideReachRadius)
        }
        let estimated = ((boardAt + 1)..<calls.count).filter { $0 != alightAt && calls[$0].canAlight && reached($0) }
            .compactMap { position in
            Self.estimate(walked, now: now, to: to.coordinate.distance(to: calls[position].coordinate))
                .map { TripStop(call: calls[position], estimate: $0) }
        }
        let current = TripStop(call: calls[alightAt], estimate: walked.expectedTravelTime)
        // When they are there, as shown (the minute): arrivals in one shown minute are the same
        // arrival (the dominance rule), the shorter walk then wins.
        let early: ((TripStop) -> TimeInterval)? = arrivingEarliest
            ? { -TimeInterval(60 * ShownTime.minute($0.call.arrival.addingTimeInterval($0.estimate))) } : nil
        let walks = try await walkedOnTheStreets(estimated, insteadOf: current, lateness: early, equalWithin: 0, in: plan) {
            ($0.place, to, .departAt($0.arrival))
        }
        let inTime = walks.filter { stop in latest.map { stop.call.arrival.addingTimeInterval(stop.estimate) <= $0 } ?? true }
        return Self.preferred(inTime, to: current, lateness: early, equalWithin: 0)
    }

    /// The `tripStopsAskedOnTheStreets` of `stops` preferred by the estimate to `current`, the
    /// stop walked to (from) now (`preferred`), each with its walk asked of the streets at once
    /// instead. The estimate alone misleads where streets wind unlike the walk now:
    /// from 61.48318,23.85569 at 08:43 the walk to Kivikirkko (824 m) scaled made Messukylän
    /// kirkko the nearest stop of bus 19's trip, 565 m by the streets, while Etu-Hankkionkatu,
    /// estimated farther, is 457 m; asked alone with a worse stop at the other end, Messukylän
    /// kirkko was turned down and the plan kept the 824 m walk, leaving two minutes earlier than
    /// asked at 08:45 for the same bus (issue 39 item 1). `walk` gives a stop's walk: its ends and
    /// timing. A stop the streets find no walk to is left out.
    private func walkedOnTheStreets(_ stops: [TripStop], insteadOf current: TripStop, lateness: ((TripStop) -> TimeInterval)?,
                                    equalWithin: TimeInterval = equalTimes, in plan: RoutePlan, walk: @escaping @Sendable (TripCall) -> (from: Place, to: Place, timing: LegTiming))
        async throws -> [TripStop] {
        var candidates: [TripStop] = [], left = stops
        while candidates.count < Self.tripStopsAskedOnTheStreets,
              let next = Self.preferred(left, to: current, lateness: lateness, equalWithin: equalWithin) {
            candidates.append(next)
            left.removeAll { $0.call == next.call }
        }
        let (pace, access) = (plan.pace, plan.access)
        let walked = try await withThrowingTaskGroup(of: TripStop?.self) { group in
            for stop in candidates {
                group.addTask {
                    let (from, to, timing) = walk(stop.call)
                    let query = LegQuery(from: from, to: to, mode: .walk, timing: timing, pace: pace, access: access)
                    guard case .success(let leg) = try await leg(for: query) else { return nil }
                    return TripStop(call: stop.call, estimate: leg.expectedTravelTime)
                }
            }
            var walked: [TripStop] = []
            for try await stop in group { stop.map { walked.append($0) } }
            return walked
        }
        return candidates.compactMap { candidate in walked.first { $0.call == candidate.call } }  // in a fixed order, for ties
    }

    /// Departures this close count as one: the shorter walk then wins. Arrivals count as one in
    /// the same shown minute (the dominance rule, docs/planner.md): their lateness is read to
    /// the minute, `equalWithin` 0.
    static let equalTimes: TimeInterval = 60

    /// Whether a walk of `new` seconds, `lateness` seconds later for the traveller (they leave
    /// later for the boarding stop, get there earlier from the alighting one; nil where the run
    /// fixed when they are across the walk), is preferred to the walk now of `now` seconds;
    /// latenesses within `equalWithin` count as none.
    static func prefers(_ new: TimeInterval, over now: TimeInterval, lateness: TimeInterval?,
                        equalWithin: TimeInterval = equalTimes) -> Bool {
        guard let lateness else { return new < now }
        return lateness > equalWithin || (lateness >= -equalWithin && new < now)
    }

    /// Of `stops`, the one the traveller walks to (from) instead of `current`, nil to keep it:
    /// the latest by `lateness` (they leave latest for it, get there earliest from it), those
    /// within `equalWithin` of the latest counting as one and then the shortest walk; without
    /// `lateness`, the shortest walk. `current` wins ties.
    private static func preferred(_ stops: [TripStop], to current: TripStop, lateness: ((TripStop) -> TimeInterval)?,
                                  equalWithin: TimeInterval = equalTimes) -> TripStop? {
        let all = [current] + stops
        let threshold = lateness.flatMap { lateness in all.map(lateness).max().map { $0 - equalWithin } }
        let best = all.filter { stop in lateness.map { $0(stop) >= threshold ?? 0 } ?? true }.min { $0.estimate < $1.estimate }
        return best.flatMap { $0.call == current.call ? nil : $0 }
    }

    /// The walk to a stop `straight` metres away in a straight line, estimated from `walked`, the
    /// walk now to a stop `now` metres away: streets wind alike nearby. Nil for a walk now of a
    /// few metres (nothing to scale).
    private static func estimate(_ walked: RouteLeg, now: Double, to straight: Double) -> TimeInterval? {
        guard now >= 1 else { return nil }
        return walked.expectedTravelTime * straight / now
    }

    /// Node `node` is a stop the planner inferred (no current location, no stay of the user's),
    /// and walk segment `besides` holds no decision of the user's (a pin, a route they chose).
    static func isTheirsToChoose(node: Int, besides segment: Int, in plan: RoutePlan) -> Bool {
        let stop = plan.nodes[node]
        return stop.isInferred && !stop.isCurrentLocation && stop.stay == nil
            && !plan.isPinned(segment: segment) && !plan.isChosenRoute(segment: segment)
    }

    /// The positions in `calls` (its trip's) where `ride` boards and, after that, alights.
    static func calls(of ride: TransitRide, in calls: [TripCall]) -> (board: Int, alight: Int)? {
        guard let board = calls.firstIndex(where: { isCall($0, ride.boarding, boarding: true) }),
              let alight = calls[(board + 1)...].firstIndex(where: { isCall($0, ride.alighting, boarding: false) }) else { return nil }
        return (board, alight)
    }

    /// Whether `call` is the ride's call at `stop`: the same stop ID (or name and place), at
    /// its time to the minute (a trip may call at one stop twice).
    private static func isCall(_ call: TripCall, _ stop: TransitStopCall, boarding: Bool) -> Bool {
        let sameStop = call.stopID != nil && stop.stopID != nil ? call.stopID == stop.stopID
            : call.name == stop.name && call.coordinate.distance(to: stop.coordinate) <= 25
        return sameStop && abs((boarding ? call.departure : call.arrival).timeIntervalSince(stop.time)) < 60
    }

}
