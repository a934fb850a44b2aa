import Foundation

extension Planner {
    /// A stop of a ride's trip the plan could walk to (from) instead: the call and the walk.
    private struct TripStop {
        var call: TripCall
        var walk: RouteLeg
    }

    /// Once transit segment `index` is asked and its stops adopted, its rides are known, and the
    /// stops the planner inferred for it are chosen again from their trips (issue 39, no walk to
    /// a farther stop of the same trip): the boarding stop becomes the stop of the first ride's
    /// trip, before where it alights, that is the shortest walk from the place across the walk
    /// and that the traveller still catches (`nearerBoarding`); the alighting stop the stop of
    /// the last ride's trip, after where it boards, that is the shortest walk to the place after
    /// it and gets them there in time (`nearerAlighting`). The engine chose them from the stop it
    /// was asked from, timing walks as a stretched straight line: `plan insert … Koskikeskus`
    /// walked 601 m to Rautatieasema B for tram 3 where the same trip stops two minutes earlier
    /// at Koskipuisto B, 514 m away and caught. The ride is asked again between the chosen stops
    /// and kept when it boards (leaves) there (`keeps`); else nothing changes. The walk the run
    /// has passed (`passedWalkFrom`: it starts or ends then) is asked again at once; the other is
    /// left empty for the loop. Pinned rides, a walk route the user chose, a stay at the stop and
    /// the nodes the user chose keep their stops.
    func choosingTheTripsNearestStops(ofSegment index: Int, passedWalkFrom time: Date?, forward: Bool, askedAt: Date,
                                      run: inout LegRun) async throws {
        let before = run.plan, failuresBefore = run.failures
        guard before.modes[index] == .transit, !before.isPinned(segment: index), let leg = before.legs[index],
              let first = leg.rides.first, let last = leg.rides.last else { return }
        let boarding = try await nearerBoarding(of: first, segment: index, leg: leg, in: before, earliest: forward ? time : nil,
                                                askedAt: askedAt)
        let alighting = try await nearerAlighting(of: last, segment: index, leg: leg, in: before, latest: forward ? nil : time,
                                                  askedAt: askedAt)
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
        let asTheRunAsks: LegTiming = if forward {
            .departAt(boarding.map { call in time.map { $0.addingTimeInterval(call.walk.expectedTravelTime) } ?? call.call.departure } ?? askedAt)
        } else {
            .arriveBy(alighting.map { call in time.map { $0.addingTimeInterval(-call.walk.expectedTravelTime) } ?? call.call.arrival } ?? askedAt)
        }
        let atTheCall: LegTiming = if let boarding { .departAt(boarding.call.departure) } else { .arriveBy(alighting?.call.arrival ?? askedAt) }
        var kept: RouteLeg?
        for (timing, leavingFixed) in [(asTheRunAsks, forward), (atTheCall, boarding != nil)] where kept == nil {
            run.plan = plan
            try await fill(index, timing, run: &run)
            if let asked = run.plan.legs[index],
               keeps(asked, boarding: boarding?.call, alighting: alighting?.call, instead: leg, leavingFixed: leavingFixed) { kept = asked }
        }
        guard let kept else {
            run.plan = before
            run.failures = failuresBefore
            return
        }
        // Its 0 m walks from and to the stops it was asked between are trimmed, as an adopted leg's are.
        if !kept.walksToAnotherStop(at: .access), !kept.walksToAnotherStop(at: .egress) {
            run.plan = run.plan.adoptingTransitStops(ofSegment: index).plan
        }
        let passed = forward ? index - 1 : index + 1
        if let time, run.plan.legs[passed] == nil {
            try await fill(passed, forward ? .departAt(time) : .arriveBy(time), run: &run)
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

    /// For `choosingTheTripsNearestStops`: the stop of `ride`'s trip, before where it alights,
    /// that is the shortest walk from the place before node `index`, shorter than the walk to
    /// the stop it boards at, and that the traveller still catches: leaving that place at
    /// `earliest` (going forward: when the run gets there), else (timed back) leaving it no
    /// earlier than for the stop it boards at. Nil when there is none or the stop is not the
    /// planner's to change.
    private func nearerBoarding(of ride: TransitRide, segment index: Int, leg: RouteLeg, in plan: RoutePlan,
                                earliest: Date?, askedAt: Date) async throws -> TripStop? {
        guard index > 0, plan.modes[index - 1] == .walk, Self.isTheirsToChoose(node: index, besides: index - 1, in: plan),
              !leg.walksToAnotherStop(at: .access) else { return nil }
        let calls = await routing.calls(ofTripOf: ride)
        guard let boardAt = calls.firstIndex(where: { Self.isCall($0, ride.boarding, boarding: true) }),
              let alightAt = calls[(boardAt + 1)...].firstIndex(where: { Self.isCall($0, ride.alighting, boarding: false) }),
              calls.indices.contains(where: { $0 < alightAt && $0 != boardAt && calls[$0].canBoard }) else { return nil }
        let from = plan.nodes[index - 1].place
        guard let walked = try await walk(plan.legs[index - 1], from: from, to: plan.nodes[index].place, plan, askedAt) else { return nil }
        let leaving = earliest ?? ride.boarding.time.addingTimeInterval(-walked.expectedTravelTime)
        var chosen: TripStop?
        for position in 0..<alightAt where position != boardAt && calls[position].canBoard
            && from.coordinate.distance(to: calls[position].coordinate) <= (walked.distance ?? .infinity) {
            guard let walk = try await walk(nil, from: from, to: calls[position].place, plan, askedAt),
                  walk.expectedTravelTime < chosen?.walk.expectedTravelTime ?? walked.expectedTravelTime,
                  leaving.addingTimeInterval(walk.expectedTravelTime) <= calls[position].departure else { continue }
            chosen = TripStop(call: calls[position], walk: walk)
        }
        return chosen
    }

    /// The mirror for the alighting stop: the stop of `ride`'s trip, after where it boards, that
    /// is the shortest walk to the place after node `index + 1`, shorter than the walk from the
    /// stop it alights at, that gets the traveller there by `latest` (timed back: when they
    /// must be there), else (going forward) no later than from the stop it alights at.
    private func nearerAlighting(of ride: TransitRide, segment index: Int, leg: RouteLeg, in plan: RoutePlan,
                                 latest: Date?, askedAt: Date) async throws -> TripStop? {
        guard index + 2 < plan.nodes.count, plan.modes[index + 1] == .walk,
              Self.isTheirsToChoose(node: index + 1, besides: index + 1, in: plan), !leg.walksToAnotherStop(at: .egress) else { return nil }
        let calls = await routing.calls(ofTripOf: ride)
        guard let boardAt = calls.firstIndex(where: { Self.isCall($0, ride.boarding, boarding: true) }),
              let alightAt = calls[(boardAt + 1)...].firstIndex(where: { Self.isCall($0, ride.alighting, boarding: false) }),
              calls.indices.contains(where: { $0 > boardAt && $0 != alightAt && calls[$0].canAlight }) else { return nil }
        let to = plan.nodes[index + 2].place
        guard let walked = try await walk(plan.legs[index + 1], from: plan.nodes[index + 1].place, to: to, plan, askedAt) else { return nil }
        let arriving = latest ?? ride.alighting.time.addingTimeInterval(walked.expectedTravelTime)
        var chosen: TripStop?
        for position in (boardAt + 1)..<calls.count where position != alightAt && calls[position].canAlight
            && to.coordinate.distance(to: calls[position].coordinate) <= (walked.distance ?? .infinity) {
            guard let walk = try await walk(nil, from: calls[position].place, to: to, plan, askedAt),
                  walk.expectedTravelTime < chosen?.walk.expectedTravelTime ?? walked.expectedTravelTime,
                  calls[position].arrival.addingTimeInterval(walk.expectedTravelTime) <= arriving else { continue }
            chosen = TripStop(call: calls[position], walk: walk)
        }
        return chosen
    }

    /// Node `node` is a stop the planner inferred (no current location, no stay of the user's),
    /// and walk segment `besides` holds no decision of the user's (a pin, a route they chose).
    private static func isTheirsToChoose(node: Int, besides segment: Int, in plan: RoutePlan) -> Bool {
        let stop = plan.nodes[node]
        return stop.isInferred && !stop.isCurrentLocation && stop.stay == nil
            && !plan.isPinned(segment: segment) && !plan.isChosenRoute(segment: segment)
    }

    /// Whether `call` is the ride's call at `stop`: the same stop ID (or name and place), at
    /// its time to the minute (a trip may call at one stop twice).
    private static func isCall(_ call: TripCall, _ stop: TransitStopCall, boarding: Bool) -> Bool {
        let sameStop = call.stopID != nil && stop.stopID != nil ? call.stopID == stop.stopID
            : call.name == stop.name && call.coordinate.distance(to: stop.coordinate) <= 25
        return sameStop && abs((boarding ? call.departure : call.arrival).timeIntervalSince(stop.time)) < 60
    }

    /// `known`, or the walk asked between the two places (nil when there is none).
    private func walk(_ known: RouteLeg?, from: Place, to: Place, _ plan: RoutePlan, _ at: Date) async throws -> RouteLeg? {
        if let known, known.mode == .walk { return known }
        let query = LegQuery(from: from, to: to, mode: .walk, timing: .departAt(at), pace: plan.pace, access: plan.access)
        guard case .success(let walk) = try await leg(for: query) else { return nil }
        return walk
    }
}
