import Foundation

/// Presets and day plans walk a hop where walking is no slower (issue 39 item 3): the rule of
/// an inserted hop (`walkOrRide`), applied to every stretch the planner chose to ride.
extension Planner {
    /// `computed` with each stretch between two of the user's nodes that the planner rides
    /// (a transit segment in it, nothing of the user's: no lock, no pin, no stay at a stop)
    /// walked from end to end when the walk takes no longer than the stretch door to door
    /// (over its span, `JudgedTimes.span`: a wait counts), when the stretch walks
    /// farther than the walk (`walkOrRide`), or when the ride found no route and a walk exists.
    /// Before a stretch is walked, the ride door to door from its start is asked once: where it
    /// beats the walk, the stretch is ridden door to door (its stops chosen again); so is a walk
    /// the planner chose before (kept by the preset), judged from when the traveller is there.
    /// A changed stretch says why (`SegmentNote.mode`) and the plan is computed again (the legs
    /// after it may leave earlier: the first change ends a round), and its ridden stretches
    /// judged again. One walk query a ridden stretch a round.
    /// - throws: only `CancellationError`.
    /// - parameter isJudged: with it, only the ridden stretches it accepts are judged (an edit's
    ///   computation: `walkingTouchedStretchesNoSlower`), and the walks the planner chose before
    ///   are left to `judgingPlannersWalksAgain`; what the computation retimed stays due.
    func walkingHopsNoSlower(in computed: LegComputation, currentLocation: Coordinate?,
                             isJudged: ((LegComputation, Range<Int>) -> Bool)? = nil) async throws -> LegComputation {
        var ridden: [SegmentKey: TimeInterval?] = [:], noRide: [SegmentKey: String] = [:], riddenAgain: Set<StretchJudged> = []
        var walked = try await walkingHopsNoSlower(in: computed, currentLocation: currentLocation, ridden: &ridden, noRide: &noRide,
                                                   riddenAgain: &riddenAgain, isJudged: isJudged)
        walked.plan = notingWalkedHopsAsShown(walked.plan, ridden: ridden, noRide: noRide)
        return walked
    }

    /// One round of `walkingHopsNoSlower(in:currentLocation:)`; `ridden` collects each walked
    /// segment's ride door to door (nil: no ride found) for its note, and `noRide` the transit
    /// answer's words when none was found ("… the next is bus 6 at 06:10 +1d …"); `riddenAgain`
    /// the stretches (by their ends and the time judged from) asked the ride door to door.
    private func walkingHopsNoSlower(in computed: LegComputation, currentLocation: Coordinate?,
                                     ridden: inout [SegmentKey: TimeInterval?],
                                     noRide: inout [SegmentKey: String],
                                     riddenAgain: inout Set<StretchJudged>,
                                     isJudged: ((LegComputation, Range<Int>) -> Bool)?) async throws -> LegComputation {
        let plan = computed.plan
        // Each stretch judged over its span (`JudgedTimes.span`), the computed ride and the ride
        // door to door alike.
        let times = JudgedTimes(plan, now: clock.now())
        var nodes = [plan.nodes[0]], modes: [TravelMode] = [], legs: [RouteLeg?] = [], origins: [Int?] = []
        var walked: [(segment: Int, reason: ModeNote?, riding: TimeInterval?, why: String?)] = [], queries = 0
        var changed = false, walkedAgain: [SegmentKey: TimeInterval] = [:]
        // The stretch as one new segment to node `end` in `mode`, asked by the recompute (a ride's
        // stops are then chosen again; a walk's asking moves the rides after it).
        func replacingStretch(to end: Int, with mode: TravelMode) {
            nodes.append(plan.nodes[end])
            modes.append(mode)
            legs.append(nil)
            origins.append(nil)
        }
        for stretch in plan.stretches() {
            // The first change ends the round: it moves the stretches after it in time (before
            // it, in an arrive-by plan), which are judged at their new times in the next round.
            let judging = walked.isEmpty && !changed && (isJudged?(computed, stretch) ?? true)
            let ridden = judging && stretch.contains { plan.modes[$0] == .transit } && !plan.holdsDecision(stretch)
                && !stretch.dropFirst().contains { plan.nodes[$0].stay != nil }
            // A stretch is asked the ride door to door once from each time it is judged from (a
            // change before it moves it; a bound on them all keeps the rounds finite).
            let span = times.span(of: stretch, in: plan)
            let ends = StretchJudged(ends: SegmentKey(fromID: plan.nodes[stretch.lowerBound].place.id,
                                                      toID: plan.nodes[stretch.upperBound].place.id),
                                     from: span.leaving)
            let askingAgain = riddenAgain.count <= 2 * plan.nodes.count
            // A walk the planner chose before (the preset kept it: its rebuilt form is that walk)
            // was judged when and from where it was chosen: judged here, against the ride door to
            // door from when the traveller is at its start, and its note said from that ride.
            if judging, isJudged == nil, stretch.count == 1, plan.isPlannersWalk(segment: stretch.lowerBound), let walkLeg = plan.legs[stretch.lowerBound],
               askingAgain, !riddenAgain.contains(ends) {
                riddenAgain.insert(ends)
                queries += 1
                let door = try await doorToDoorRide(against: walkLeg, from: stretch.lowerBound, to: stretch.upperBound, in: plan,
                                                    leaving: span.leaving ?? clock.now(), arriving: span.arriving)
                if door?.beats == true {
                    replacingStretch(to: stretch.upperBound, with: .transit)
                    changed = true
                    continue
                }
                // Its note then reads this ride (a faster ride kept out by its longer walks keeps
                // the note that says so).
                if let door, door.riding >= walkLeg.expectedTravelTime { walkedAgain[plan.segmentKey(stretch.lowerBound)] = door.riding }
            }
            // An edit's stretch (`isJudged`) is asked the walk only when walking could win: the
            // straight line walked at the fastest pace is no slower than the ride, or the stretch
            // walks farther than the straight line (a new day plan asks every stretch).
            let riding = stretch.allSatisfy({ plan.legs[$0] != nil })
                ? span.arriving.map { $0.timeIntervalSince(span.leaving ?? clock.now()) } : nil
            // The stretch's walks: its walk segments to and from the stops, and its rides' own walks.
            let stretchWalks = stretch.reduce(0.0) { total, index in
                total + (plan.modes[index] == .walk ? plan.legs[index]?.distance ?? 0
                    : plan.legs[index]?.walks.reduce(0) { $0 + $1.distance } ?? 0)
            }
            let straight = plan.nodes[stretch.lowerBound].place.coordinate.distance(to: plan.nodes[stretch.upperBound].place.coordinate)
            let mayWalk = isJudged == nil || riding.map { riding in
                straight / Self.fastestStreetWalkMetresPerSecond * plan.pace.durationMultiplier <= riding || stretchWalks > straight
            } ?? true
            if ridden, mayWalk {
                let start = span.leaving ?? clock.now()
                queries += 1
                let walk = LegQuery(from: plan.nodes[stretch.lowerBound].place, to: plan.nodes[stretch.upperBound].place,
                                    mode: .walk, timing: .departAt(start), pace: plan.pace, access: plan.access)
                let walkLeg = try await leg(for: walk).successValue
                let distances = walkLeg?.distance.flatMap {
                    $0 > 0 && riding != nil ? WalkedDistances(riding: stretchWalks, walking: $0) : nil
                }
                let choice = Self.walkOrRide(walking: walkLeg?.expectedTravelTime, riding: riding, inherited: .transit, leaving: start,
                                             distances: distances)
                // The stretch as computed (through the stops inferred for it, timed back in an
                // arrive-by plan) is one ride; the best one from the walk's own time may beat
                // the walk (session 49: walked 08:01–08:20 where bus 90A leaving then arrives
                // 08:17). Then the stretch is ridden door to door, its stops chosen again.
                if choice.mode == .walk, riding != nil, let walkLeg, askingAgain, !riddenAgain.contains(ends) {
                    riddenAgain.insert(ends)
                    queries += 1
                    if try await doorToDoorRide(against: walkLeg, from: stretch.lowerBound, to: stretch.upperBound, in: plan,
                                                leaving: start, arriving: span.arriving)?.beats == true {
                        replacingStretch(to: stretch.upperBound, with: .transit)
                        changed = true
                        continue
                    }
                }
                if choice.mode == .walk {
                    replacingStretch(to: stretch.upperBound, with: .walk)
                    let why = riding != nil ? nil : Self.noRideWords(computed.failures, in: stretch)
                    walked.append((modes.count - 1, Self.noting(choice.reason, why: why), riding, why))
                    continue
                }
            }
            nodes += plan.nodes[(stretch.lowerBound + 1)...stretch.upperBound]
            modes += plan.modes[stretch]
            legs += plan.legs[stretch]
            origins += stretch.map { Optional($0) }
        }
        try Task.checkCancellation()
        for (key, riding) in walkedAgain { ridden[key] = riding }
        guard !walked.isEmpty || changed else {
            return LegComputation(plan: plan, failures: computed.failures, queryCount: computed.queryCount + queries,
                                  retimed: computed.retimed)
        }
        var result = plan
        result.replaceStructure(nodes: nodes, modes: modes, legs: legs, origins: origins)
        for hop in walked {
            result.setModeNote(hop.reason, ofSegment: hop.segment)
            ridden[result.segmentKey(hop.segment)] = hop.riding
            if let why = hop.why { noRide[result.segmentKey(hop.segment)] = why }
        }
        var again = try await computeLegsReporting(result, currentLocation: currentLocation)
        again.queryCount += computed.queryCount + queries
        // The segments the edit retimed stay due for the judgements after this one, renumbered.
        again.retimed.formUnion(origins.indices.filter { origins[$0].map(computed.retimed.contains) ?? false })
        // The rides after a walked stretch may leave at other times now: they are judged again
        // (a walked stretch is never ridden again, so this ends within the stretch count).
        return try await walkingHopsNoSlower(in: again, currentLocation: currentLocation, ridden: &ridden, noRide: &noRide,
                                             riddenAgain: &riddenAgain, isJudged: isJudged)
    }

    /// The ride from node `from` to node `to` door to door, and whether it beats `walk` by the
    /// walk rule over the stretch's span (`JudgedTimes.span`): leaving at its start (`leaving`),
    /// or in an arrive-by plan leaving as late as it can to arrive by its end (`arriving`). `riding`: its time door to door so judged. Nil when no ride is found. One query.
    private func doorToDoorRide(against walk: RouteLeg, from: Int, to: Int, in plan: RoutePlan, leaving: Date,
                                arriving: Date?) async throws -> (beats: Bool, riding: TimeInterval)? {
        let backward: Bool = if case .arriveBy = plan.timePreference { true } else { false }
        let timing: LegTiming = if backward, let arriving { .arriveBy(arriving) } else { .departAt(leaving) }
        let query = LegQuery(from: plan.nodes[from].place, to: plan.nodes[to].place, mode: .transit, timing: timing,
                             pace: plan.pace, access: plan.access)
        guard let ride = try await leg(for: query).successValue, !ride.rides.isEmpty,
              let departure = ride.departure, let arrival = ride.arrival else { return nil }
        let riding = if backward, let arriving { arriving.timeIntervalSince(departure) } else { arrival.timeIntervalSince(leaving) }
        let choice = Self.walkOrRide(walking: walk.expectedTravelTime, riding: riding, inherited: .transit, leaving: leaving,
                                     distances: Self.walkedDistances(of: ride, against: walk))
        return (choice.mode == .transit, riding)
    }

    /// `plan` with each walked hop's note in the minutes its walk leg shows (the difference of
    /// the two times shown, as `plan show` and the web page read it), the ride door to door
    /// leaving when that walk does; computed once the walks are final (walking a later stretch
    /// of an arrive-by plan moves the walks before it). A hop with no leg keeps its note.
    private func notingWalkedHopsAsShown(_ plan: RoutePlan, ridden: [SegmentKey: TimeInterval?],
                                         noRide: [SegmentKey: String]) -> RoutePlan {
        guard !ridden.isEmpty else { return plan }
        // The times the plan document shows (`WireDocuments.plan`): a leave-now plan from now.
        let now = clock.now(), fallback: Date? = plan.timePreference == .leaveNow ? now : nil
        let departures = plan.departureTimes(startingAt: fallback), arrivals = plan.schedule(startingAt: fallback)
        var noted = plan
        for (index, key) in plan.segmentKeys.enumerated() where plan.modes[index] == .walk {
            guard let riding = ridden[key], let leg = plan.legs[index], let leaving = departures[index], let arriving = arrivals[index + 1],
                  plan.note(ofSegment: index)?.mode?.kind != .walkedRideWalksFarther else { continue }
            // Its walking minutes, as its segment shows them: a wait at the stop after it is no walking.
            let walking = min(arriving.timeIntervalSince(leaving), leg.expectedTravelTime)
            noted.setModeNote(Self.noting(Self.walkOrRide(walking: walking, riding: riding.map { max($0, walking) }, inherited: .walk,
                                                          leaving: leaving).reason, why: noRide[key]), ofSegment: index)
        }
        return noted
    }

    /// The note of a ride the user chose for segment `index` (`plan mode … transit`): their choice
    /// stays, and when walking it is no slower than the ride door to door the segment says so
    /// ("walking (6 min) is no slower than transit (9 min door to door, its 3 min wait before it
    /// leaves included)"); otherwise it says nothing. One
    /// walk query, only for a computed ride the engine marked `walkingIsNoSlower`. The leg's own
    /// note ("walking the whole way is no slower than this journey") is judged by the same walk,
    /// from when the traveller can leave the segment's start in this plan: the engine judged it
    /// from when the ride was asked, which for a pinned ride kept through edits may be long
    /// before the traveller gets there (a missed pin walked from the start it can't be caught from).
    /// - throws: only `CancellationError`.
    func notingWalkingNoSlower(ofSegment index: Int, in plan: RoutePlan) async throws -> RoutePlan {
        var noted = plan
        guard plan.modes.indices.contains(index), plan.modes[index] == .transit else { return plan }
        noted.setModeNote(nil, ofSegment: index)
        guard let ride = plan.legs[index], ride.walkingIsNoSlower else { return noted }
        let start = plan.readyToLeave(now: clock.now())[index] ?? ride.departure ?? clock.now()
        let riding = ride.arrival.map { $0.timeIntervalSince(start) } ?? ride.expectedTravelTime
        let walk = LegQuery(from: plan.nodes[index].place, to: plan.nodes[index + 1].place, mode: .walk,
                            timing: .departAt(start), pace: plan.pace, access: plan.access)
        guard let walking = try await leg(for: walk).map(\.expectedTravelTime).successValue else { return noted }
        noted.legs[index]?.walkingIsNoSlower = walking <= riding
        if walking <= riding {
            noted.setModeNote(Self.walkingIsNoSlower(walking: walking, riding: riding, leaving: start), ofSegment: index)
        }
        return noted
    }
}

extension Planner {
    /// Faster than any street walk at normal pace (the streets time walks at 5 km/h): a straight
    /// line walked at it is a lower bound of the walk.
    static let fastestStreetWalkMetresPerSecond = 6.0 / 3.6

    /// A plan of two places by transit (`plan new A B --mode transit`) is the user's explicit
    /// choice: it keeps its ride even where walking is no slower (presets and day plans walk
    /// such a hop), and its first ride then says so of the whole way, door to door from the origin
    /// to the destination ("walking the whole way (6 min) is no slower than the whole plan by
    /// transit (9 min door to door from when you can leave, waits included)": not the ride's own
    /// minutes). One walk query, none
    /// when the straight line alone walks longer than the ride.
    /// - throws: only `CancellationError`.
    func notingWalkingNoSlowerEndToEnd(in computed: LegComputation) async throws -> LegComputation {
        let plan = computed.plan
        let arrivals = plan.schedule(startingAt: clock.now())
        guard let ride = plan.modes.firstIndex(of: .transit), plan.legs.allSatisfy({ $0 != nil }),
              let ready = plan.readyToLeave(now: clock.now())[0], let end = arrivals.last ?? nil
        else { return computed }
        // From when the traveller leaves: a first segment pinned later (a walk pinned at 08:00
        // in a plan from 02:30) is their decision, not the ride's wait; so are the stays at the
        // nodes between (an hour at the stop is no part of a 3-minute bus).
        let start = plan.pinnedDeparture(ofSegment: 0).map { max($0, ready) } ?? ready
        let stays = plan.nodes.indices.dropFirst().dropLast().reduce(0.0) { total, index in
            guard let arrived = arrivals[index] else { return total }
            return total + plan.nodes[index].leaving(arrivedAt: arrived).timeIntervalSince(arrived)
        }
        let riding = end.timeIntervalSince(start) - stays
        let from = plan.nodes[0].place, to = plan.nodes[plan.nodes.count - 1].place
        // No street walk is shorter than the straight line: where even that takes longer than
        // the ride, walking cannot be no slower, and the walk (kilometres of streets) is not asked.
        // The ride's own "walking the whole way is no slower than this journey" is this judgement
        // too: its journey is the plan's, door to door (the engine judged only its stretch).
        let straightLineWalk = from.coordinate.distance(to: to.coordinate) / Self.fastestStreetWalkMetresPerSecond
            * plan.pace.durationMultiplier
        var noted = computed
        guard straightLineWalk <= riding else {
            noted.plan.legs[ride]?.walkingIsNoSlower = false
            return noted
        }
        let walk = LegQuery(from: from, to: to, mode: .walk, timing: .departAt(start), pace: plan.pace, access: plan.access)
        noted.queryCount += 1
        guard let walking = try await leg(for: walk).map(\.expectedTravelTime).successValue else { return noted }
        noted.plan.legs[ride]?.walkingIsNoSlower = walking <= riding
        guard walking <= riding else { return noted }
        noted.plan.setModeNote(ModeNote(.wholeWayWalkingNoSlower, walking: walking, riding: riding, from: start,
                                        ground: plan.ground(from: 0, to: plan.nodes.count - 1)), ofSegment: ride)
        return noted
    }
}

extension RoutePlan {
    /// When the traveller can leave each node, waiting for no ride: going forward from the plan's
    /// earliest departure (its "depart at", or now) through the legs as soon as they can
    /// (`earliestArrivals`: a walk at once, a ride when it leaves), after each node's stay; not
    /// when the next ride leaves as `departureTimes` has it (the wait for that ride is part of
    /// the ride door to door). A walk timed back to the ride after it showed the traveller at
    /// that ride's stop only when it leaves, so the ride was judged without its wait (trial 49
    /// finding 9: a night's first hop walked to wait four hours for a bus, the second hop
    /// ridden where walking arrived at 02:15 and the bus at 06:22). Where no forward time is
    /// known (an arrive-by plan, after a missing or missed leg) as `departureTimes`.
    func readyToLeave(now: Date) -> [Date?] {
        let earliest = earliestArrivals(now: now)
        return zip(nodes.indices, departureTimes(startingAt: now)).map { index, departure in
            earliest[index].map { nodes[index].leaving(arrivedAt: $0) } ?? departure
        }
    }
}

extension Result {
    /// The value of a success; nil for a failure (its error is not needed).
    var successValue: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

extension Planner {
    /// A walk rule's reason with the transit answer's words when no ride was found (trial 49
    /// finding 7: "walked: no transit route found (walking takes 1 h 29 min): no transit service
    /// leaving after … the last ride is …, the next is … +1d"): the traveller sees when service
    /// resumes, not only that none was found.
    static func noting(_ reason: ModeNote?, why: String?) -> ModeNote? {
        guard var reason, let why else { return reason }
        reason.noRide = why
        return reason
    }
}

/// A stretch asked the ride door to door (`walkingHopsNoSlower`): its two ends and the time it
/// was judged from (nil: none known, judged from the clock), so each is asked once a time.
struct StretchJudged: Hashable {
    var ends: SegmentKey
    var from: Date?
}
