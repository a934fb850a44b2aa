import Foundation

/// A pinned departure the traveller can no longer catch gets a proposal: the next one they
/// can (or, going backward, the latest that still arrives), and what follows is timed from it
/// (issue 39 item 2: "every missed pin gets one"). Part of computing a plan's legs
/// (`computeLegsReporting`), after the legs are filled.
extension Planner {
    /// With pins: when the plan would have to leave before it may (`missedConnection` is a
    /// pinned segment or one before it), that pinned departure (the first pin at or after the
    /// missed segment: the constraint that gives) can no longer be caught, nor any later one
    /// missed going on from its proposal (`missedConnections`). The
    /// user's leg stays, and the first departure with the same fingerprint (duration) that can
    /// be caught is proposed as a pending update (a missed transit leg before the pin is asked
    /// again from when the traveller gets there, to know when the pin's start is reached).
    /// In an arrive-by plan, when the legs after the pin end after the requested arrival
    /// (`lateConnection` is a pinned segment or one after it; the last pin at or before it
    /// gives), the latest departure of the
    /// same fingerprint that arrives in time is (a late transit leg after the pin is asked
    /// again "arrive by", to know when the pin must end).
    func proposeCatchableDeparture(run: inout LegRun) async throws {
        let plan = run.plan
        if case .arriveBy(let deadline) = plan.timePreference, plan.lateConnection(arrivingBy: deadline) != nil {
            // A late transit leg after a pin (asked to leave after it) makes the pin too late:
            // the last pin at or before the late segment is the one that gives. Then, going on
            // backward from when its proposal leaves (the traveller takes it), the last pin at or
            // before the next late one, and so on (`lateStretches`, which flags them).
            var (end, due) = (plan.segmentCount, deadline)  // node `end` must be left by `due`
            while let late = run.plan.lateConnection(leaving: due, node: end),
                  let pinnedIndex = run.plan.pinnedSegmentIndices.last(where: { $0 <= late }), pinnedIndex < end,
                  let pin = run.plan.pin(ofSegment: pinnedIndex) {
                let plan = run.plan
                var mustLeave = due  // the end of the segment before `index`
                for index in stride(from: end - 1, to: pinnedIndex, by: -1) {
                    guard var leg = plan.legs[index] else { return }
                    let mustArrive = index == plan.segmentCount - 1 ? deadline : plan.nodes[index + 1].latestArrival(leavingAt: mustLeave)
                    if let arrival = leg.arrival, arrival > mustArrive.addingTimeInterval(RoutePlan.connectionSlack) {
                        // Late too: the latest one that still arrives, to know when the pin must
                        // end. The traveller who follows the pin's proposal takes it (the mirror
                        // of `followProposal`): the plan keeps it, so the nodes after the pin
                        // show when to be there, not `--:--` after a ride asked from the pin.
                        run.queryCount += 1
                        let asked = try await self.leg(for: query(plan, index, .arriveBy(mustArrive)))
                        guard case .success(let earlier) = asked else {
                            if case .failure(let error) = asked, Self.meansNothingToCatch(error) {
                                sayingNothingArrivesInTime(after: pinnedIndex, pin: pin, late: mustArrive, keeping: plan, run: &run)
                            }
                            return
                        }
                        if !plan.isPinned(segment: index) { run.plan.legs[index] = earlier }
                        leg = earlier
                    }
                    let arrival = min(mustArrive, leg.arrival ?? mustArrive)
                    mustLeave = leg.departure ?? plan.pinnedDeparture(ofSegment: index) ?? arrival.addingTimeInterval(-leg.expectedTravelTime)
                }
                let latest = pinnedIndex == plan.segmentCount - 1 ? deadline : plan.nodes[pinnedIndex + 1].latestArrival(leavingAt: mustLeave)
                let probe = PinnedDeparture(segment: pin.segment, departure: latest.addingTimeInterval(-pin.duration), duration: pin.duration)
                guard try await propose(pinnedIndex, pin: pin, probe: probe, arrivingBy: latest, run: &run) != nil,
                      let leaves = run.plan.proposedDeparture(ofSegment: pinnedIndex) else {
                    // No ride to follow: the legs after the pin keep the times they had (trial 60 F6:
                    // a bus asked "arrive by" for a proposal that never came, 06:37 after 10:39).
                    for index in (pinnedIndex + 1)..<end { run.plan.legs[index] = plan.legs[index] }
                    return
                }
                try await precedeProposal(before: pinnedIndex, leavingAt: leaves, run: &run)
                (end, due) = (pinnedIndex, leaves)
            }
            return
        }
        // Going forward, every pin that gives way gets its proposal (issue 39 item 2): the first
        // pin at or after the first missed segment, then, going on from when its proposal arrives
        // (the traveller takes it instead), the first pin at or after the next missed one
        // (`missedConnections`, which flags them). A missed leg before a pin (a transit leg
        // asked to arrive by it that leaves too early) means the pin can't be reached either. An
        // arrive-by plan arriving in time has no start: only a stay "until" before a pin can
        // make it missed (`missedAfterAStayUntil`).
        try await proposingForPinsNotFoundFromWhenTheTravellerIsThere(run: &run)
        var node = 0
        var earliest = plan.earliestDeparture(now: clock.now()) ?? .distantPast
        while let missed = run.plan.missedConnection(fromNode: node, leavingAt: earliest),
              let pinnedIndex = run.plan.pinnedSegmentIndices.first(where: { $0 >= missed }),
              let pin = run.plan.pin(ofSegment: pinnedIndex) {
            let plan = run.plan
            var reach = earliest
            for index in node..<pinnedIndex {
                guard var leg = plan.legs[index] else { return }
                reach = plan.nodes[index].leaving(arrivedAt: reach)
                if let departure = leg.departure, departure < reach.addingTimeInterval(-RoutePlan.connectionSlack) {
                    // Missed too: when the traveller can really go on from here.
                    run.queryCount += 1
                    guard case .success(let later) = try await self.leg(for: query(plan, index, .departAt(reach))) else { return }
                    leg = later
                }
                reach = max(reach, leg.departure ?? plan.pinnedDeparture(ofSegment: index) ?? reach)
                reach = leg.arrival ?? reach.addingTimeInterval(leg.expectedTravelTime)
            }
            reach = plan.nodes[pinnedIndex].leaving(arrivedAt: reach)
            let probe = PinnedDeparture(segment: pin.segment, departure: reach, duration: pin.duration)
            // The user's ride keeps its times (every step in it runs forward); when the traveller
            // can be at its stop is the plan's to say (`RoutePlan.missedConnectionReaches`).
            guard let arrival = try await propose(pinnedIndex, pin: pin, probe: probe, arrivingBy: nil, run: &run) else { return }
            try await followProposal(from: pinnedIndex + 1, arrivingAt: arrival, run: &run)
            (node, earliest) = (pinnedIndex + 1, arrival)
        }
    }

    /// In an arrive-by plan, no ride after pinned segment `pinnedIndex` arrives by `late`, when
    /// the legs after it need it (the engine finds none that early): the pin gives way all the
    /// same, a walk or drive as a ride does, and says that nothing can be caught to arrive in
    /// time ("no earlier ride arrives by 06:13"), rather than nothing at all (trial 60 F6: a walk
    /// pinned at 09:30 in a plan arriving by 07:42 had nothing pending, and the legs after it
    /// asked "arrive by" for a proposal that never came showed a bus at 06:37 after 10:39). The
    /// legs after the pin keep what they were (`kept`): the traveller follows no proposal.
    private func sayingNothingArrivesInTime(after pinnedIndex: Int, pin: PinnedDeparture, late: Date, keeping kept: RoutePlan,
                                            run: inout LegRun) {
        for index in (pinnedIndex + 1)..<kept.segmentCount { run.plan.legs[index] = kept.legs[index] }
        guard let selected = kept.legs[pinnedIndex], !wasDismissed(selected, segment: pin.segment, in: kept) else { return }
        run.plan.pending[pin.segment] = PendingSegmentUpdate(
            segment: pin.segment, selected: selected.timed(leaving: pin.departure),
            proposal: .nothingCatchable(NoCatchableRide(arrivingBy: true, time: late)))
    }

    /// A pinned ride not found again (cancelled, skipping its stop, gone from the timetable) was
    /// proposed from its own time (`resolvePinned`), when the legs before it were not yet known.
    /// The proposal rule asks from when the traveller can be at its start, going forward from the
    /// plan's start through the legs before it: trial 58 F2, a cancelled bus 38 at 08:40 got bus 6
    /// at 08:40:30 (arriving 09:16) where the traveller, at TAYS A at 08:27, catches bus 6 at
    /// 08:30:30 (09:06); a cancelled bus 6 at 08:02 got the 08:12 where the 07:52:45 was
    /// catchable from the start. Asked as `plan alternatives` asks the segment (from its start
    /// node, any stop within reach). A pin the traveller cannot reach by its time is missed, and
    /// `proposeCatchableDeparture` proposes it from when they get there. In an arrive-by plan,
    /// the latest ride that still arrives when the legs after it need (`proposingInTime`). Only a
    /// pin `resolvePinned` proposed anew: an answer within a second of the user's ride is that
    /// ride, and a failed engine proposes nothing.
    private func proposingForPinsNotFoundFromWhenTheTravellerIsThere(run: inout LegRun) async throws {
        for pinnedIndex in run.plan.pinnedSegmentIndices
        where run.pinsNotFound.contains(pinnedIndex) && run.plan.modes[pinnedIndex] == .transit
            && run.plan.pendingUpdate(ofSegment: pinnedIndex) != nil {
            guard let pin = run.plan.pin(ofSegment: pinnedIndex) else { continue }
            if case .arriveBy = run.plan.timePreference {
                _ = try await proposingInTime(pinnedIndex, pin: pin, run: &run)
                continue
            }
            let (reach, queries, ridesAsked) = try await earliestReach(ofSegment: pinnedIndex, in: run.plan)
            run.queryCount += queries
            guard let reached = reach else { continue }
            let ready = run.plan.nodes[pinnedIndex].leaving(arrivedAt: reached)
            guard ready < pin.departure.addingTimeInterval(-RoutePlan.connectionSlack) else { continue }
            let probe = PinnedDeparture(segment: pin.segment, departure: ready, duration: pin.duration)
            guard try await propose(pinnedIndex, pin: pin, probe: probe, arrivingBy: nil, run: &run) != nil,
                  let leaves = run.plan.proposedDeparture(ofSegment: pinnedIndex),
                  leaves < pin.departure.addingTimeInterval(-RoutePlan.connectionSlack) else { continue }
            // The traveller takes it, before the pin leaves: the rides before it, timed back to
            // the pin, got them there after it left (trial 61 F3; the plan is timed as followed
            // with it, `RoutePlan.followingTheProposals`). They take the rides it was asked from.
            for (index, ride) in ridesAsked {
                run.plan.legs[index] = ride
                run.asked.insert(index)
            }
        }
    }

    /// When the traveller can be at the start of segment `target` at the earliest, going forward
    /// from the plan's start: the rides before it that the plan timed back to the pin that gave
    /// way (it leaves later than it must) are asked again from when the traveller is at their
    /// start (trial 59 F2: a chosen bus 6 at 08:43, cancelled, was proposed from the bus 8 at 08:33
    /// timed back to it, 08:53 arriving 09:16, where from the plan's 08:20 bus 10 and bus 36
    /// arrive 09:02). An earlier pin is waited for; nil past a missing or missed leg. The plan's
    /// legs stay as they are; also how many queries it asked, and the rides it asked again (by
    /// segment), which a proposal leaving before its pin puts in their place (trial 61 F3).
    func earliestReach(ofSegment target: Int, in plan: RoutePlan) async throws
        -> (time: Date?, queries: Int, rides: [Int: RouteLeg]) {
        guard var time = plan.earliestDeparture(now: clock.now()) else { return (nil, 0, [:]) }
        var queries = 0
        var rides: [Int: RouteLeg] = [:]
        for index in 0..<target {
            guard let leg = plan.legs[index] else { return (nil, queries, rides) }
            let ready = plan.nodes[index].leaving(arrivedAt: time)
            if let pinned = plan.pinnedDeparture(ofSegment: index) {
                guard pinned >= ready.addingTimeInterval(-RoutePlan.connectionSlack) else { return (nil, queries, rides) }
                time = leg.arrival ?? pinned.addingTimeInterval(leg.expectedTravelTime)
            } else if plan.modes[index] == .transit, let departure = leg.departure,
                      abs(departure.timeIntervalSince(ready)) > RoutePlan.connectionSlack {
                queries += 1
                guard case .success(let asked) = try await self.leg(for: query(plan, index, .departAt(ready))),
                      let arrival = asked.arrival else { return (nil, queries, rides) }
                rides[index] = asked
                time = arrival
            } else {
                time = leg.arrival ?? max(ready, leg.departure ?? ready).addingTimeInterval(leg.expectedTravelTime)
            }
        }
        return (time, queries, rides)
    }

    /// In an arrive-by plan, the proposal for pinned segment `pinnedIndex` not found again
    /// (cancelled, skipping its stop, gone) is the latest ride that still
    /// arrives when the legs after it need the traveller at its end (the deadline, for the last),
    /// as for a late pin, and the rides before it are timed back from it (`precedeProposal`):
    /// trial 59 F1, a cancelled bus 80C at 09:41 got bus 9 at 09:47, arriving 10:02 for a 09:58
    /// deadline, where bus 19 at 09:37 arrives 09:54. Not a ride that left before now: nil then,
    /// and the forward rule proposes. (A change a delay broke gives way as a late pin does:
    /// `lateGoingBack`.) Returns when the proposal arrives.
    private func proposingInTime(_ pinnedIndex: Int, pin: PinnedDeparture, run: inout LegRun) async throws -> Date? {
        guard case .arriveBy = run.plan.timePreference, let due = Self.dueAtTheEnd(ofSegment: pinnedIndex, in: run.plan) else { return nil }
        let kept = run.plan
        let probe = PinnedDeparture(segment: pin.segment, departure: due.addingTimeInterval(-pin.duration), duration: pin.duration)
        guard let arrival = try await propose(pinnedIndex, pin: pin, probe: probe, arrivingBy: due, run: &run),
              let leaves = run.plan.proposedDeparture(ofSegment: pinnedIndex) else { return nil }
        guard leaves >= clock.now() else {
            run.plan = kept
            return nil
        }
        try await precedeProposal(before: pinnedIndex, leavingAt: leaves, run: &run)
        return arrival
    }

    /// The traveller takes a late pin's proposal, in an arrive-by plan: the unpinned rides before
    /// it, back to the pin before, that arrive after they must to make it are asked again
    /// "arrive by" (the mirror of `followProposal`; session 52: the ride before a pin made late
    /// stayed timed to the pin, was flagged "late … 0 s too late" for the proposal, and the
    /// nodes after the pin showed `--:--`). Walks and drives are timed by the schedule.
    private func precedeProposal(before end: Int, leavingAt departure: Date, run: inout LegRun) async throws {
        var time = departure  // when the traveller must leave node `index + 1`
        var reachedAfter: Date?  // when the traveller must be at node `index + 2`
        var emptiedAhead: Int?  // the walk beyond a stop a ride asked again adopted, to ask
        for index in stride(from: end - 1, through: 0, by: -1) {
            guard !run.plan.isPinned(segment: index) else { return }
            let mustArrive = run.plan.nodes[index + 1].latestArrival(leavingAt: time)
            if index == emptiedAhead, run.plan.legs[index] == nil { try await fill(index, .arriveBy(mustArrive), run: &run) }
            guard var leg = run.plan.legs[index] else { return }
            if let arrival = leg.arrival, arrival > mustArrive.addingTimeInterval(RoutePlan.connectionSlack) {
                try await fill(index, .arriveBy(mustArrive), run: &run)
                emptiedAhead = try await adoptingTheStopsOfARideAskedAgain(index, passedWalkFrom: reachedAfter, forward: false,
                                                                           askedAt: mustArrive, run: &run)
                guard let earlier = run.plan.legs[index] else { return }
                leg = earlier
            }
            reachedAfter = mustArrive
            time = leg.departure ?? min(mustArrive, leg.arrival ?? mustArrive).addingTimeInterval(-leg.expectedTravelTime)
        }
    }

    /// The traveller follows a pin's proposal: the unpinned rides after it, up to the next pin,
    /// that leave before they can get there are asked again from when they can (trial 50: the
    /// segment after a missed pin kept its old 09:25 walk under a node shown at 09:31, and was
    /// flagged missed itself). Walks and drives have no times of their own: the schedule times
    /// them from the proposal.
    private func followProposal(from start: Int, arrivingAt arrival: Date, run: inout LegRun) async throws {
        var time = arrival
        var leftBefore: Date?  // when the traveller leaves node `index - 1`
        var emptiedAhead: Int?  // the walk beyond a stop a ride asked again adopted, to ask
        for index in start..<run.plan.segmentCount {
            guard !run.plan.isPinned(segment: index) else { return }
            let ready = run.plan.nodes[index].leaving(arrivedAt: time)
            if index == emptiedAhead, run.plan.legs[index] == nil { try await fill(index, .departAt(ready), run: &run) }
            guard var leg = run.plan.legs[index] else { return }
            if let departure = leg.departure, departure < ready.addingTimeInterval(-RoutePlan.connectionSlack) {
                try await fill(index, .departAt(ready), run: &run)
                emptiedAhead = try await adoptingTheStopsOfARideAskedAgain(index, passedWalkFrom: leftBefore, forward: true,
                                                                           askedAt: ready, run: &run)
                guard let later = run.plan.legs[index] else { return }
                leg = later
            }
            leftBefore = ready
            time = leg.arrival ?? max(ready, leg.departure ?? ready).addingTimeInterval(leg.expectedTravelTime)
        }
    }

    /// A ride asked again to follow (precede) a proposal uses the stops it boards and alights at,
    /// as every ride a run asks (`adoptStops`), the walk the run passed asked again to them.
    /// Asked from the traveller's place, it kept the inferred stop asked for: a 493 m walk to
    /// Vapriikki, which no ride uses, then "walk 0 min Vapriikki → Frenckell (267 m)" to a bus
    /// the traveller would miss (trial 55 finding 3a). Not without the time of that walk (the
    /// segment beside the proposal is its ride's). Returns the walk ahead that the adoption emptied
    /// (after the ride going forward, before it going backward), for the caller to ask.
    private func adoptingTheStopsOfARideAskedAgain(_ index: Int, passedWalkFrom time: Date?, forward: Bool, askedAt: Date,
                                                   run: inout LegRun) async throws -> Int? {
        guard run.plan.modes[index] == .transit, run.plan.legs[index] != nil, let time else { return nil }
        let ahead = forward ? index + 1 : index - 1
        let hadAhead = run.plan.legs.indices.contains(ahead) && run.plan.legs[ahead] != nil
        try await adoptStops(ofSegment: index, passedWalkFrom: time, forward: forward, askedAt: askedAt, run: &run)
        return hadAhead && run.plan.legs[ahead] == nil ? ahead : nil
    }

    /// Attaches to pinned segment `pinnedIndex` the proposal for it: the best ride the traveller
    /// can catch from `probe`'s departure (or that arrives by `arrivingBy`), or that none can be.
    /// Returns when the proposed ride arrives; nil when no ride is proposed.
    private func propose(_ pinnedIndex: Int, pin: PinnedDeparture, probe: PinnedDeparture, arrivingBy: Date?,
                         run: inout LegRun) async throws -> Date? {
        let plan = run.plan
        // Another trip, by definition. A ride: the best one the traveller can catch from when
        // they can be at its start (or that arrives in time), as the engine answers it; a walk
        // or drive: one of the same duration.
        let found: RouteLeg?
        var nothingToCatch = false
        if plan.modes[pinnedIndex] == .transit {
            run.queryCount += 1
            // From where the traveller is (`queryFromTheTravellersPlace`) to where they go.
            let asked = queryFromTheTravellersPlace(plan, pinnedIndex, arrivingBy.map { .arriveBy($0) } ?? .departAt(probe.departure))
            switch try await self.leg(for: asked) {
            case .success(let leg): found = leg
            case .failure(let error): found = nil; nothingToCatch = Self.meansNothingToCatch(error)
            }
        } else {
            let (matched, _, _, queries) = try await matchingLeg(for: plan, segment: pinnedIndex, pin: probe, arrivingBy: arrivingBy)
            run.queryCount += queries
            found = matched
        }
        guard let selected = plan.legs[pinnedIndex] else { return nil }
        guard let latest = found else {
            // Nothing later (earlier) of any line: the plan says so rather than staying silent,
            // and going forward says what the traveller can still do: walk it (trial 50: "no
            // later bus 14 today" where the walk takes 25 min).
            guard nothingToCatch, !wasDismissed(selected, segment: pin.segment, in: run.plan) else { return nil }
            let walk = arrivingBy == nil ? try await walkingInstead(pinnedIndex, leaving: probe.departure, run: &run) : nil
            run.plan.pending[pin.segment] = PendingSegmentUpdate(
                segment: pin.segment, selected: selected.timed(leaving: pin.departure),
                proposal: .nothingCatchable(NoCatchableRide(arrivingBy: arrivingBy != nil, time: arrivingBy ?? probe.departure,
                                                            walk: walk)))
            return walk?.arrival
        }
        let nearest = try await boardingTheTripsNearestStop(latest, segment: pinnedIndex, probe: probe.departure,
                                                           arrivingBy: arrivingBy, run: &run)
        guard !wasDismissed(nearest, segment: pin.segment, in: run.plan) else { return nil }
        // A walk or car leg has no times of its own: the proposal and the choice are the pinned
        // leg leaving at the time that fits and at the pinned time.
        let proposed = nearest.timed(leaving: arrivingBy.map { $0.addingTimeInterval(-latest.expectedTravelTime) } ?? probe.departure)
        run.plan.pending[pin.segment] = PendingSegmentUpdate(segment: pin.segment, selected: selected.timed(leaving: pin.departure),
                                                             proposal: .ride(proposed))
        return proposed.arrival ?? proposed.departure.map { $0.addingTimeInterval(proposed.expectedTravelTime) }
    }

    /// The ride `found` for pinned segment `index` boarding the stop of its first trip the rule
    /// of the trip's nearest stops chooses (`choosingTheTripsNearestStops`, as for any ride a run
    /// asks): a pin's proposal, accepted, is pinned and keeps its stops, so the rule is applied
    /// here, on a copy of the plan with the ride in place and unpinned (trial 58 F5: accepted, bus
    /// 9 walked 434 m to Koskipuisto D at 08:57 while the same trip stops at Keskustori E, 149 m
    /// away, at 08:56, left later for). Only the boarding stop moves, on the same trips arriving
    /// no later; else `found` as the engine answered it.
    private func boardingTheTripsNearestStop(_ found: RouteLeg, segment index: Int, probe: Date, arrivingBy: Date?,
                                             run: inout LegRun) async throws -> RouteLeg {
        guard found.mode == .transit, let boarding = found.rides.first?.boarding, let alighting = found.rides.last?.alighting,
              let arrival = found.arrival, index > 0, run.plan.modes[index - 1] == .walk else { return found }
        var copy = run.plan
        copy.pins[copy.segmentKey(index)] = nil
        copy.legs[index] = found
        var trial = LegRun(plan: copy, share: nil)
        trial.asked = run.asked.union([index])
        let forward = arrivingBy == nil
        // Going forward, when the traveller leaves the place before the stop; timed back, the
        // alighting stop stays (only the boarding one is chosen here).
        let leaves = forward ? run.plan.legs[index - 1].map { probe.addingTimeInterval(-$0.expectedTravelTime) } : nil
        let askedAt = arrivingBy ?? probe
        try await adoptStops(ofSegment: index, passedWalkFrom: leaves, forward: forward, askedAt: askedAt, retries: 0, run: &trial)
        try await choosingTheTripsNearestStops(ofSegment: index, passedWalkFrom: leaves, forward: forward, askedAt: askedAt,
                                               newRide: true, run: &trial)
        run.queryCount += trial.queryCount
        guard let chosen = trial.plan.legs[index], chosen.tripIDs == found.tripIDs,
              let first = chosen.rides.first?.boarding, let last = chosen.rides.last?.alighting,
              first.coordinate.distance(to: boarding.coordinate) > configuration.endIsStopMetres,
              last.coordinate.distance(to: alighting.coordinate) <= configuration.endIsStopMetres,
              let chosenArrival = chosen.arrival, chosenArrival <= arrival.addingTimeInterval(RoutePlan.connectionSlack)
        else { return found }
        return chosen
    }

    /// Segment `index` walked, leaving at `start`, when it gets there within the plan's day (24
    /// hours from the plan's earliest departure: a walk that takes the night is no proposal); nil
    /// otherwise or when it can't be walked.
    private func walkingInstead(_ index: Int, leaving start: Date, run: inout LegRun) async throws -> RouteLeg? {
        var asked = query(run.plan, index, .departAt(start))
        asked.mode = .walk
        asked.avoiding = []
        run.queryCount += 1
        guard case .success(let leg) = try await self.leg(for: asked) else { return nil }
        let walk = leg.timed(leaving: start)
        let dayStart = run.plan.earliestDeparture(now: clock.now()) ?? start
        guard let arrival = walk.arrival, arrival <= dayStart.addingTimeInterval(24 * 3_600) else { return nil }
        return walk
    }
}
