import Foundation

/// Times for every node, and the plan's totals. All displayed times come from `schedule()`.
extension RoutePlan {
    /// The time the traveller gets to each node (one entry per node; `nil` where unknown); the
    /// origin's entry is when the day starts there. A node's stay (`PlanNode.stay`) lies between
    /// its entry here and its entry in `departureTimes`.
    ///
    /// Walk and car legs carry no dates, so times start from the first leg that has dates (the
    /// pinned one if any): durations are subtracted backward and added forward from it. A missing
    /// leg stops the propagation, and a dated leg beyond one anchors nothing (`isTimedFromItsSource`):
    /// the nodes there show no time. If no leg anchors, the time preference anchors the chain
    /// (depart at → first node, arrive by → last node), and for "leave now" `fallbackStart`.
    /// An arrive-by plan with late pins, and any plan with a pin missed at a broken change or
    /// cancelled, is timed as followed with their proposals (`followingTheProposals`). In an arrive-by plan the
    /// walk from a place to the ride after it is timed back from that ride
    /// (`timingWalksBackFromTheirRides`): the time to spare is spent at the place.
    public func schedule(startingAt fallbackStart: Date? = nil) -> [Date?] {
        asFollowed(startingAt: fallbackStart).scheduleAsItIs(startingAt: fallbackStart)
    }

    /// The plan as the traveller follows it: the proposals `followingTheProposals` takes, until
    /// none is left to take. Found once per `schedule`, `departureTimes` or `leavingTimes` call,
    /// whose own steps then time that plan as it is (each step following again asked the same
    /// questions up to four times a call, in every plan with something pending).
    func asFollowed(startingAt fallbackStart: Date?) -> RoutePlan {
        var plan = self
        while let followed = plan.followingTheProposals(startingAt: fallbackStart) { plan = followed }
        return plan
    }

    /// `schedule()` of this plan as it is, its proposals not followed.
    private func scheduleAsItIs(startingAt fallbackStart: Date?) -> [Date?] {
        var times = [Date?](repeating: nil, count: nodes.count)
        // In segment order, so that a node's time is when the traveller gets there from the
        // leg before it (a stay "until" then shows its arrival, and leaves at its end).
        let anchors = (0..<segmentCount).filter { isDated($0) && isTimedFromItsSource($0) }
        // The first ride (or pinned walk or drive) the traveller gets to after it leaves: the legs
        // after it, up to the next pin, were asked from a time nobody keeps.
        var missed: Int?
        for index in anchors {
            if let missed, index > missed, !isPinned(segment: index) { continue }
            guard times[index] == nil, let leg = legs[index] else { continue }
            let departure = leg.departure
                ?? leg.arrival.map { $0.addingTimeInterval(-leg.expectedTravelTime) }
                ?? pinnedDeparture(ofSegment: index)
            guard let departure else { continue }
            // A stay "until" before the leg: reached going forward from a depart-at date (`fillBackward`).
            // So is a walk the planner chose because no ride was sooner (`leavesAtTheStart`).
            if (nodes[index].stay?.isUntil != true && !leavesAtTheStart(before: index)) || !timeForwardFromTheStart(&times, to: index) {
                times[index] = nodes[index].latestArrival(leavingAt: departure)
            }
            if times[index + 1] == nil {
                times[index + 1] = leg.arrival ?? departure.addingTimeInterval(leg.expectedTravelTime)
            }
            if let broken = fillForward(&times, from: index + 1) { missed = min(missed ?? broken, broken) }
            fillBackward(&times, from: index)
        }
        if times.allSatisfy({ $0 == nil }) {
            switch timePreference {
            case .departAt(let date):
                times[0] = date
                fillForward(&times, from: 0)
            case .arriveBy(let date):
                times[nodes.count - 1] = date
                fillBackward(&times, from: nodes.count - 1)
            case .leaveNow:
                if let fallbackStart {
                    times[0] = fallbackStart
                    fillForward(&times, from: 0)
                }
            }
        }
        if case .departAt(let earliest) = timePreference, let start = times[0],
           start < earliest.addingTimeInterval(-Self.connectionSlack) {
            // A dated leg was back-dated before the requested departure: it is missed
            // (`missedConnection(leavingAt:)`). The nodes before it show when the traveller
            // really gets there, going forward from the requested time.
            var time = earliest
            times[0] = time
            var missed = segmentCount
            for index in 0..<segmentCount {
                guard let leg = legs[index], !isDated(index) else { missed = index; break }
                time = nodes[index].leaving(arrivedAt: time).addingTimeInterval(leg.expectedTravelTime)
                times[index + 1] = time
            }
            forgetTimesAfterAMissedRide(&times, segment: missed)
        } else if case .departAt = timePreference, let first = (0..<segmentCount).first(where: isDated),
                  (0...first).contains(where: { nodes[$0].stay?.isUntil == true }) || leavesAtTheStart(before: first) {
            // The nodes up to the first dated leg were reached going forward from the date
            // (`timeForwardFromTheStart`): a stay "until" there may end after that leg leaves.
            forgetTimesAfterAMissedRide(&times, segment: first)
        }
        if case .arriveBy(let deadline) = timePreference, let end = times[nodes.count - 1],
           end > deadline.addingTimeInterval(Self.connectionSlack) {
            // A dated leg arrives too late for the requested arrival (`lateConnection(arrivingBy:)`).
            // The nodes after it show when the traveller must be there, going backward from the
            // requested time (the mirror of a missed connection in a depart-at plan).
            var time = deadline
            times[nodes.count - 1] = time
            for index in stride(from: segmentCount - 1, through: 0, by: -1) {
                guard let leg = legs[index], !isDated(index) else { break }
                let mustLeave = time.addingTimeInterval(-leg.expectedTravelTime)
                // A stay "until" that ends after then makes this leg the late one
                // (`lateAfterAStayUntil`): the node keeps the time the traveller gets there.
                if staysPast(mustLeave, atNode: index) { break }
                time = nodes[index].latestArrival(leavingAt: mustLeave)
                times[index] = time
            }
        }
        timingWalksBackFromTheirRides(&times)
        if !isArriveBy, let earliest = earliestDeparture(now: fallbackStart ?? .distantPast) {
            timeAfterPinsThatGaveWay(&times, leavingAt: earliest)
        }
        // No node is shown before one before it (issue 39: a pin's "be there by" after a missed
        // one, earlier than where the traveller already is): such a time is one nobody keeps.
        var shown: Date?
        for index in times.indices {
            guard let time = times[index] else { continue }
            if let shown, time < shown.addingTimeInterval(-Self.connectionSlack) { times[index] = nil; continue }
            shown = time
        }
        return times
    }

    /// The time the traveller leaves each node: its `schedule()` time plus its stay, or the
    /// pinned time of a walk or car leg that leaves from it (the traveller waits for it, as
    /// `fillForward` times the leg) unless they can leave only after it: a missed pin is not
    /// when they leave (trial 49: "it leaves 10:20 but you can leave at 10:20, 0 s too late"
    /// after a stay until 10:41). In an arrive-by plan, a place before a walk timed back from its
    /// ride: when that walk leaves (`leavingForTheRides`). The destination's entry is its arrival.
    public func departureTimes(startingAt fallbackStart: Date? = nil) -> [Date?] {
        asFollowed(startingAt: fallbackStart).departureTimesAsItIs(startingAt: fallbackStart)
    }

    private func departureTimesAsItIs(startingAt fallbackStart: Date?) -> [Date?] {
        let times = scheduleAsItIs(startingAt: fallbackStart)
        let forTheRides = leavingForTheRides(times: times)
        return zip(nodes.indices, times).map { index, time in
            let ready = time.map(nodes[index].leaving(arrivedAt:))
            // Arrive by: the walk to the ride after a place leaves when it must (the time to spare is spent there).
            if let ready, let leaves = forTheRides[index], leaves > ready { return leaves }
            guard let pinned = pinnedStreetDeparture(ofSegment: index) else { return ready }
            guard let ready, ready > pinned.addingTimeInterval(Self.connectionSlack) else { return pinned }
            return ready
        }
    }

    /// When the traveller really leaves each node, as a node with a stay says it ("leave 11:02"):
    /// its `departureTimes` time, or the next leg's own departure when that is later (a ride, or a
    /// transit leg's walk to its stop, leaving after the stay ends: the traveller waits where
    /// they are and leaves with it, rather than at the stay's end). A leg that leaves earlier is
    /// missed, and the node keeps the time the traveller can leave. `departureTimes` stays when
    /// they are ready to leave, which the planner's queries start from.
    public func leavingTimes(startingAt fallbackStart: Date? = nil) -> [Date?] {
        let followed = asFollowed(startingAt: fallbackStart)
        return zip(nodes.indices, followed.departureTimesAsItIs(startingAt: fallbackStart)).map { index, ready in
            guard let ready, index < segmentCount, let departure = legs[index]?.departure, departure > ready else { return ready }
            return departure
        }
    }

    /// When the traveller can get to each node at the earliest: going forward from the plan's
    /// earliest departure (`earliestDeparture(now:)`) through the legs, leaving each node after
    /// its stay and waiting for each fixed departure (a ride's, a pin's). `schedule()` shows the
    /// latest they may get there instead (as late as the rides allow). nil from a missing or
    /// missed leg on, and everywhere in an arrive-by plan (it has no start).
    public func earliestArrivals(now: Date) -> [Date?] {
        var times = [Date?](repeating: nil, count: nodes.count)
        guard var time = earliestDeparture(now: now) else { return times }
        times[0] = time
        for index in 0..<segmentCount {
            guard let leg = legs[index] else { break }
            let ready = nodes[index].leaving(arrivedAt: time)
            if let departure = fixedDeparture(ofSegment: index) {
                guard departure >= ready.addingTimeInterval(-Self.connectionSlack) else { break }
                time = leg.arrival ?? departure.addingTimeInterval(leg.expectedTravelTime)
            } else {
                time = ready.addingTimeInterval(leg.expectedTravelTime)
            }
            times[index + 1] = time
        }
        return times
    }

    /// When the traveller may leave each node at the latest in an arrive-by plan, the mirror of
    /// `earliestArrivals`: going backward from its "arrive by" date through the legs, each ride
    /// (or pin) when it leaves and each walk or drive timed back from when the traveller must be
    /// at its end, before that node's stay. The destination's entry is the "arrive by" date; nil
    /// from a missing or late leg back, and everywhere in a plan with no "arrive by" date.
    public func latestDepartures() -> [Date?] {
        var times = [Date?](repeating: nil, count: nodes.count)
        guard case .arriveBy(var time) = timePreference else { return times }
        times[nodes.count - 1] = time
        for index in stride(from: segmentCount - 1, through: 0, by: -1) {
            guard let leg = legs[index] else { break }
            let mustArrive = index == segmentCount - 1 ? time : nodes[index + 1].latestArrival(leavingAt: time)
            if let departure = fixedDeparture(ofSegment: index) {
                guard (leg.arrival ?? departure.addingTimeInterval(leg.expectedTravelTime))
                    <= mustArrive.addingTimeInterval(Self.connectionSlack) else { break }
                time = departure
            } else {
                time = mustArrive.addingTimeInterval(-leg.expectedTravelTime)
            }
            times[index] = time
        }
        return times
    }

    /// When the traveller must be at each node to make the pinned segment leaving it (its ride's
    /// or its pin's departure, before the node's stay); nil at a node whose segment is not pinned.
    public func latestArrivalsForPins() -> [Date?] {
        nodes.indices.map { index in
            guard index < segmentCount, isPinned(segment: index), let leaves = fixedDeparture(ofSegment: index) else { return nil }
            return nodes[index].latestArrival(leavingAt: leaves)
        }
    }

    /// The pinned time of a walk or car leg (one without dates of its own) leaving node `index`;
    /// nil for a transit leg, an unpinned segment or the destination.
    private func pinnedStreetDeparture(ofSegment index: Int) -> Date? {
        guard index < segmentCount, legs[index]?.departure == nil else { return nil }
        return pinnedDeparture(ofSegment: index)
    }

    /// When segment `index` must leave whatever the traveller does: its transit leg's departure
    /// (its access walk's start: a leg keeps its ride's times, missed or not), or its pin's; nil
    /// for an unpinned walk or drive.
    private func fixedDeparture(ofSegment index: Int) -> Date? {
        legs[index]?.departure ?? pinnedDeparture(ofSegment: index)
    }

    /// Seconds of rounding a connection may be late by and still count as caught (engines answer
    /// in whole seconds, walks in fractions).
    static let connectionSlack: TimeInterval = 1

    /// Whether the dates of segment `index` come from a known time: it is pinned, or no missing
    /// leg lies between it and a pin, or between it and the end the plan is timed from (the start
    /// of a depart-at or leave-now plan, the end of an arrive-by one). The planner asks a ride
    /// beyond a missing leg from a guess (the time before the gap), so its dates say nothing
    /// about when the traveller gets there.
    func isTimedFromItsSource(_ index: Int) -> Bool {
        if isPinned(segment: index) { return true }
        func reachesSource(through others: StrideThrough<Int>, endCounts: Bool) -> Bool {
            for other in others {
                guard legs[other] != nil else { return false }
                if isPinned(segment: other) { return true }
            }
            return endCounts
        }
        let timedForward = !isArriveBy
        let before = reachesSource(through: stride(from: index - 1, through: 0, by: -1), endCounts: timedForward)
        let after = reachesSource(through: stride(from: index + 1, through: segmentCount - 1, by: 1), endCounts: !timedForward)
        return before || after
    }

    private var isArriveBy: Bool {
        if case .arriveBy = timePreference { return true }
        return false
    }

    /// Whether segment `index` has a fixed time: a leg with dates, or the pinned segment.
    func isDated(_ index: Int) -> Bool {
        guard let leg = legs[index] else { return false }
        return leg.departure != nil || leg.arrival != nil || isPinned(segment: index)
    }

    /// The first segment whose fixed departure (a transit leg's, or a pin's) is before the
    /// traveller can get to its start, going forward from `earliest` through the legs before
    /// it; `nil` when every connection is caught or a leg before it is missing.
    public func missedConnection(leavingAt earliest: Date) -> Int? { missedConnection(fromNode: 0, leavingAt: earliest) }

    /// `missedConnection`, going forward from node `start` reached at `earliest`.
    func missedConnection(fromNode start: Int, leavingAt earliest: Date) -> Int? {
        firstMissed(fromNode: start, leavingAt: earliest)?.segment
    }

    /// The first connection missed going forward from `earliest` (`missedConnection`) when it is
    /// missed at a change a realtime delay broke, the journey caught at its start: the segment,
    /// the ride missed (its index in the leg) and when the ride before it gets the traveller to
    /// its stop. Nil when the first connection missed is missed at its start, or none is. What
    /// the reminder of a missed connection names (trial 58 F1: "the change at Kivikirkko").
    public func missedChange(leavingAt earliest: Date) -> (segment: Int, ride: Int, reached: Date)? {
        guard let first = firstMissed(fromNode: 0, leavingAt: earliest), first.atChange,
              let change = legs[first.segment]?.brokenChange else { return nil }
        return (first.segment, change.ride, change.reached)
    }

    /// The first connection missed going forward from node `start` reached at `earliest`, when
    /// the traveller can leave its start node, and whether it is missed at a change a realtime
    /// delay broke (its start caught: `RouteLeg.brokenChange`) rather than at its start.
    private func firstMissed(fromNode start: Int, leavingAt earliest: Date) -> (segment: Int, ready: Date, atChange: Bool)? {
        var time = earliest
        for index in start..<segmentCount {
            guard let leg = legs[index] else { return nil }
            time = nodes[index].leaving(arrivedAt: time)
            guard let departure = fixedDeparture(ofSegment: index) else {
                time = time.addingTimeInterval(leg.expectedTravelTime)
                continue
            }
            if departure < time.addingTimeInterval(-Self.connectionSlack) { return (index, time, false) }
            // A pinned journey whose change a realtime delay broke is missed inside: the ride
            // after the change leaves before the traveller gets to it (`RouteLeg.brokenChange`).
            if isPinned(segment: index), leg.brokenChange != nil { return (index, time, true) }
            time = leg.arrival ?? departure.addingTimeInterval(leg.expectedTravelTime)
        }
        return nil
    }

    /// For each connection missed going forward (`missedConnections`, depart-at and leave-now
    /// plans), when the traveller can really be where it leaves: at its first ride's stop (its
    /// start node left when they can, plus its access walks) for a transit leg, at its start for
    /// a pinned walk or drive. The missed leg keeps its own times, every step running forward
    /// (trial 50: a walk shown starting when the traveller can leave and a ride before it); this
    /// says what they can do instead. A pin that gives way for a ride missed before it has none.
    /// A pinned journey caught at its start but missed at a change a realtime delay broke: when
    /// the ride before the change gets them to the next ride's stop (`RouteLeg.brokenChange`).
    /// In an arrive-by plan, the segments shown missed at a broken change (`missedChanges`).
    public func missedConnectionReaches(now: Date) -> [Int: Date] {
        let changes = missedChanges(now: now)
        guard let earliest = earliestDeparture(now: now) else { return changes.mapValues(\.reached) }
        var reaches: [Int: Date] = [:]
        for stretch in missedStretches(leavingAt: earliest) {
            guard let leg = legs[stretch.missed] else { continue }
            let walking = leg.rides.isEmpty ? 0 : leg.walks.filter { $0.kind == .access }.reduce(0) { $0 + $1.duration }
            // Caught at its start, a journey with a broken change is missed at the change: when
            // the ride before it gets the traveller to the stop of the ride that leaves too early.
            reaches[stretch.missed] = changes[stretch.missed]?.reached ?? stretch.ready.addingTimeInterval(walking)
        }
        return reaches
    }

    /// The segments shown missed (`brokenConnections`) at a change a realtime delay broke, not at
    /// their start: for each, the ride missed (its index in the leg) and when the ride before it
    /// gets the traveller to its stop (`RouteLeg.brokenChange`). Going forward, a pinned journey
    /// caught at its start; in an arrive-by plan, a pinned journey that arrives in time by its
    /// live times but whose change is broken (the mirror: it is shown missed, not late, and the
    /// latest ride that arrives in time is proposed). The agenda's `missed_change`.
    public func missedChanges(now: Date) -> [Int: (ride: Int, reached: Date)] {
        var changes: [Int: (ride: Int, reached: Date)] = [:]
        switch timePreference {
        case .arriveBy(let deadline):
            for stretch in lateStretches(arrivingBy: deadline) where missesAChangeInTime(stretch.late, mustArrive: stretch.mustArrive) {
                changes[stretch.late] = legs[stretch.late]?.brokenChange
            }
        case .departAt, .leaveNow:
            guard let earliest = earliestDeparture(now: now) else { return [:] }
            for stretch in missedStretches(leavingAt: earliest) where stretch.atChange {
                changes[stretch.missed] = legs[stretch.missed]?.brokenChange
            }
        }
        return changes
    }

    /// Whether pinned segment `index` of an arrive-by plan arrives by `mustArrive` but a change
    /// in it is broken (`RouteLeg.brokenChange`): the traveller can't make it as pinned.
    private func missesAChangeInTime(_ index: Int, mustArrive: Date) -> Bool {
        guard isPinned(segment: index), let leg = legs[index], leg.brokenChange != nil else { return false }
        let arrival = leg.arrival ?? fixedDeparture(ofSegment: index)?.addingTimeInterval(leg.expectedTravelTime)
        return arrival.map { $0 <= mustArrive.addingTimeInterval(Self.connectionSlack) } ?? true
    }

    /// Every connection missed going forward from `earliest`, and every pin that gives way for
    /// one (issue 39: every missed pin is flagged, with its proposal): the first one
    /// (`missedConnection`) and the pin that gives way for it (the first pin at or after it);
    /// then, going on from when that pin's proposal arrives (the best ride the traveller can
    /// still catch instead), the next one, and so on. It stops at a pin that gave way with no
    /// ride proposed (nothing catchable, dismissed): after it, nobody knows when the traveller
    /// gets on.
    public func missedConnections(leavingAt earliest: Date) -> [Int] {
        missedStretches(leavingAt: earliest).flatMap { stretch in
            [stretch.missed] + (stretch.gives.map { $0 == stretch.missed ? [] : [$0] } ?? [])
        }
    }

    /// Going forward from `earliest`, each connection missed, the pin that gives way for it and
    /// when its proposal arrives (see `missedConnections`).
    private func missedStretches(leavingAt earliest: Date) -> [(missed: Int, ready: Date, atChange: Bool, gives: Int?, arrival: Date?)] {
        var stretches: [(missed: Int, ready: Date, atChange: Bool, gives: Int?, arrival: Date?)] = []
        var node = 0, time = earliest
        while let (found, ready, atChange) = firstMissed(fromNode: node, leavingAt: time) {
            let gives = pinnedSegmentIndices.first { $0 >= found }
            let arrival = gives.flatMap(proposedArrival(ofSegment:))
            stretches.append((found, ready, atChange, gives, arrival))
            guard let gives, let arrival else { break }
            (node, time) = (gives + 1, arrival)
        }
        return stretches
    }

    /// When what is proposed for pinned segment `index` gets to its end: the ride proposed, or,
    /// with no ride to catch, walking the segment (`NoCatchableRide.walk`); nil without either.
    func proposedArrival(ofSegment index: Int) -> Date? {
        let proposal: RouteLeg? = switch pendingUpdate(ofSegment: index)?.proposal {
        case .ride(let leg)?: leg
        case .nothingCatchable(let answer)?: answer.walk
        case nil: nil
        }
        guard let proposal else { return nil }
        return proposal.arrival ?? proposal.departure.map { $0.addingTimeInterval(proposal.expectedTravelTime) }
    }

    /// Past a pin that gave way, the traveller goes on with its proposal: the nodes after it, up
    /// to the next connection missed, show when they get there going forward from the proposal's
    /// arrival (a node a ride gets them to shows its arrival, trial 59b F9: Kaleva A showed 10:05,
    /// when the walk to bus 9 leaves, where the proposal gets there at 09:57; one a walk gets them
    /// to, the latest they may be there for a ride caught there), not `--:--` between legs shown
    /// with their times (trial 49 finding 5: Tampere-talo showed `--:--` between a missed pin and
    /// a ride shown at 10:54). Those after the next connection missed show none, up to its pin.
    /// So do the nodes after a pinned ride cancelled or skipping its stop, with a ride proposed,
    /// up to the next connection missed (trial 59 F4: they showed the cancelled ride's arrival).
    private func timeAfterPinsThatGaveWay(_ times: inout [Date?], leavingAt earliest: Date) {
        let stretches = missedStretches(leavingAt: earliest)
        for (position, stretch) in stretches.enumerated() {
            guard let gives = stretch.gives, let arrival = stretch.arrival else { break }
            let next = position + 1 < stretches.count ? stretches[position + 1] : nil
            timeForward(&times, after: gives, arrivingAt: arrival, upTo: next?.missed ?? segmentCount)
            // After the next one missed, the traveller is not on it: no time up to its pin's start.
            if let next, next.missed + 1 < (next.gives ?? nodes.count) {
                for node in (next.missed + 1)..<(next.gives ?? nodes.count) { times[node] = nil }
            }
        }
        let missed = Set(stretches.compactMap(\.gives))
        for index in pinnedSegmentIndices where !missed.contains(index) && legs[index]?.hasCancelledRide == true {
            guard let arrival = proposedArrival(ofSegment: index) else { continue }
            let next = stretches.map(\.missed).first { $0 > index }
            timeForward(&times, after: index, arrivingAt: arrival, upTo: next ?? segmentCount)
        }
    }

    /// The nodes after segment `gives` timed going forward from `arrival` at its end, up to node
    /// `end` (the start of the next connection missed); those past a missing leg get none.
    private func timeForward(_ times: inout [Date?], after gives: Int, arrivingAt arrival: Date, upTo end: Int) {
        var time = arrival
        times[gives + 1] = time
        var index = gives + 1
        while index < end, let leg = legs[index] {
            let ready = nodes[index].leaving(arrivedAt: time)
            if let departure = fixedDeparture(ofSegment: index) {
                // A node a walk or drive gets to shows when to be there for this leg, the walk
                // saying the wait (trial 51 finding 3); one a ride gets to (the proposal's end
                // first) shows that ride's arrival (trial 59b F9).
                if index > gives + 1, fixedDeparture(ofSegment: index - 1) == nil {
                    times[index] = nodes[index].latestArrival(leavingAt: max(departure, ready))
                }
                time = leg.arrival ?? max(departure, ready).addingTimeInterval(leg.expectedTravelTime)
            } else {
                time = ready.addingTimeInterval(leg.expectedTravelTime)
            }
            times[index + 1] = time
            index += 1
        }
        if index < end { for node in (index + 1)...end { times[node] = nil } }
    }

    /// The mirror of `missedConnection` for an arrive-by plan: the last segment whose fixed
    /// arrival (a transit leg's, or a pin's) is after the traveller must leave its end, going
    /// backward from `deadline` through the legs after it; `nil` when everything arrives in time
    /// or a leg after it is missing.
    public func lateConnection(arrivingBy deadline: Date) -> Int? { lateGoingBack(from: deadline).connection }

    /// `lateConnection`, going backward from node `end` left at `due` (the destination: arrived
    /// at by `due`), through the segments before it.
    func lateConnection(leaving due: Date, node end: Int) -> Int? { lateGoingBack(from: due, node: end).connection }

    /// The arrive-by mirror of `missedStretches`: each connection arriving late going backward
    /// from `deadline`, and the pin that gives way for it (the last pin at or before it); then,
    /// going on backward from when that pin's proposal leaves (the traveller takes it instead),
    /// the next one, and so on (issue 39 item 2: every pin that makes the arrival late gets a
    /// proposal; trial 50: a pin before one that gave way, arriving after its proposal leaves,
    /// was not flagged). It stops at a pin with no ride proposed.
    private func lateStretches(arrivingBy deadline: Date) -> [(late: Int, gives: Int?, mustArrive: Date)] {
        var stretches: [(late: Int, gives: Int?, mustArrive: Date)] = []
        var end = segmentCount, due = deadline
        while true {
            let back = lateGoingBack(from: due, node: end)
            guard let found = back.connection, let mustArrive = back.mustArrive else { break }
            let gives = pinnedSegmentIndices.last { $0 <= found }
            stretches.append((found, gives, mustArrive))
            guard let gives, gives < end, let departure = proposedDeparture(ofSegment: gives) else { break }
            (end, due) = (gives, departure)
        }
        return stretches
    }

    /// An arrive-by plan whose pins make the arrival late, as the traveller follows it: each
    /// such pin's proposed ride (`lateStretches`) in place of the pinned one, pinned at the time
    /// it leaves. Its times are the plan's times: the nodes after a late pin show when to be
    /// there to arrive in time, those before it when to leave for its proposal (the mirror of
    /// going on from a missed pin's proposal in a depart-at plan; they showed `--:--` after a
    /// ride asked from the pinned one). The late pin's leg keeps its own times. Nil when no
    /// late pin has a ride proposed.
    ///
    /// So is an arrive-by plan whose pinned ride is cancelled or skips its stop, with a ride
    /// proposed: the cancelled ride gets nobody anywhere, so the nodes after it showed its arrival
    /// and the plan its total as if it ran (trial 59 F4); they show the proposal's. (Going
    /// forward, `timeAfterPinsThatGaveWay` times the nodes after it from the proposal.)
    ///
    /// So is a depart-at or leave-now plan whose pinned journey is caught at its start but missed
    /// at a change a realtime delay broke (`missedChanges`), with a ride proposed: the traveller
    /// takes the proposal from the start, so the node before it shows when the proposal leaves
    /// (trial 60 F3: it showed 09:51, when the late bus 19 leaves, above the proposal's arrival
    /// 10:11, which needs leaving 09:45). So is one whose pinned ride is cancelled or skips its
    /// stop, caught at its start (trial 61 F3: the start showed 08:32, when the walk to the
    /// cancelled bus 6 leaves, above the proposal's arrival, whose bus 29 leaves at 08:33:30).
    /// `fallbackStart`: a leave-now plan's start, as `schedule`.
    private func followingTheProposals(startingAt fallbackStart: Date?) -> RoutePlan? {
        // Called by every `schedule()`, `departureTimes()` and `leavingTimes()`: with nothing
        // pending there is nothing to follow, and no stretches to walk.
        guard !pending.isEmpty else { return nil }
        var followed = self
        func follow(_ gives: Int) -> Bool {
            guard let proposal = pendingUpdate(ofSegment: gives)?.latest,
                  let departure = proposedDeparture(ofSegment: gives), let pin = pin(ofSegment: gives) else { return false }
            followed.legs[gives] = proposal
            followed.pins[pin.segment] = PinnedDeparture(segment: pin.segment, departure: departure, duration: proposal.expectedTravelTime)
            followed.pending[pin.segment] = nil
            return true
        }
        if case .arriveBy(let deadline) = timePreference {
            for stretch in lateStretches(arrivingBy: deadline) {
                guard let gives = stretch.gives, follow(gives) else { break }
            }
        }
        if isArriveBy {
            for index in pinnedSegmentIndices where legs[index]?.hasCancelledRide == true && followed.pending[segmentKey(index)] != nil {
                _ = follow(index)
            }
        } else if let earliest = earliestDeparture(now: fallbackStart ?? .distantPast) {
            let stretches = missedStretches(leavingAt: earliest)
            for stretch in stretches where stretch.atChange && stretch.gives == stretch.missed {
                _ = follow(stretch.missed)
            }
            // Caught at its start, a pinned ride cancelled or skipping its stop is followed too
            // (trial 61 F3), the walk to it leaving when the traveller can (`walkingInTime`).
            let gaveWay = Set(stretches.compactMap(\.gives))
            for index in pinnedSegmentIndices where !gaveWay.contains(index) && legs[index]?.hasCancelledRide == true && follow(index) {
                followed.walkingInTime(toTheProposalOf: index, leavingAt: earliest)
            }
        }
        return followed.pending.count < pending.count ? followed : nil
    }

    /// A proposal asked from the traveller's place (`queryFromTheTravellersPlace`) may board a
    /// stop nearer it than the inferred stop the walk before it goes to: its departure is then
    /// its ride's, the shorter walk to it costing nothing beyond the known one, and the known
    /// walk timed back from it started before the traveller can leave (trial 61 F3: bus 29 at
    /// 08:33:30 from Frenckell, 3 min from Keskustori, behind a 4.5-min walk to Koskipuisto C,
    /// put the start at 08:29 in a plan leaving 08:30, as missed). The proposal was asked from
    /// when they can leave, so that walk, followed, takes no longer than leaves it in time.
    fileprivate mutating func walkingInTime(toTheProposalOf index: Int, leavingAt earliest: Date) {
        guard index > 0, let walk = legs[index - 1], walk.mode == .walk, !isDated(index - 1),
              let departure = legs[index]?.departure, let reached = earliestArrivals(now: earliest)[index - 1] else { return }
        let leaving = nodes[index - 1].leaving(arrivedAt: reached)
        guard leaving.addingTimeInterval(walk.expectedTravelTime) > departure.addingTimeInterval(Self.connectionSlack) else { return }
        legs[index - 1]?.expectedTravelTime = max(0, departure.timeIntervalSince(leaving))
    }

    /// When the ride proposed for pinned segment `index` leaves; nil without one.
    func proposedDeparture(ofSegment index: Int) -> Date? {
        guard let proposal = pendingUpdate(ofSegment: index)?.latest else { return nil }
        return proposal.departure ?? proposal.arrival.map { $0.addingTimeInterval(-proposal.expectedTravelTime) }
    }

    /// The segment whose fixed time breaks the plan's requested time: a connection missed going
    /// forward from the earliest departure (depart at, leave now at `now`), or one arriving too
    /// late going backward from an arrive-by date, or in an arrive-by plan one that a stay
    /// "until" before it makes impossible to catch (`missedAfterAStayUntil`). Shown as the
    /// segment's `missed_connection`.
    public func brokenConnection(now: Date) -> Int? { brokenConnections(now: now).first }

    /// Every segment shown missed: in a depart-at or leave-now plan each connection missed going
    /// forward, a pin's proposal taken after each (`missedConnections`); in an arrive-by plan
    /// each one arriving late going backward, a pin's proposal taken before each
    /// (`lateStretches`), the first found (the one nearest the end) first.
    public func brokenConnections(now: Date) -> [Int] {
        switch timePreference {
        case .departAt(let date): return missedConnections(leavingAt: date)
        case .leaveNow: return missedConnections(leavingAt: now)
        case .arriveBy: return lateOrMissedInAnArriveByPlan
        }
    }

    /// For each segment shown late in an arrive-by plan, when the traveller must be at its end to
    /// arrive in time: the plan's "arrive by" at the destination, else the next leg's latest
    /// departure less the stay there, going backward through the legs as followed (the mirror of
    /// `missedConnectionReaches`). Not the end node's shown time, which is when the late leg gets
    /// there (trial 52: "you must be at near Turjankatu by 10:41:07, 0 s too late" before a leg
    /// leaving 10:39). Empty for other plans, and for a connection a stay "until" makes missed.
    public var lateConnectionDues: [Int: Date] {
        guard case .arriveBy(let date) = timePreference else { return [:] }
        let stretches = lateStretches(arrivingBy: date)
        let back = lateGoingBack(from: date)
        let afterAStay = back.afterAStay.flatMap { late in back.afterAStayMustArrive.map { [late: $0] } } ?? [:]
        if !stretches.isEmpty {
            // A journey arriving in time whose change is broken is missed, not late: no due.
            let late = stretches.filter { !missesAChangeInTime($0.late, mustArrive: $0.mustArrive) }
            return Dictionary(late.map { ($0.late, $0.mustArrive) }, uniquingKeysWith: min).merging(afterAStay) { $1 }
        }
        return missedAfterAStayUntil == nil ? afterAStay : [:]
    }

    /// Every late connection going backward (`lateStretches`), and the walk or drive after them
    /// that a stay "until" makes late; without late connections, the one a stay "until" makes
    /// missed or late. Beside a late pin, the walk leaving a stay that holds past the arrival was
    /// shown "walk 0 min, 371 m" to a node reached half an hour before the stay ends, not late
    /// (trial 55 finding 3b): it is late, and arrives its own duration after the stay.
    private var lateOrMissedInAnArriveByPlan: [Int] {
        guard case .arriveBy(let date) = timePreference else { return [] }
        let stretches = lateStretches(arrivingBy: date)
        let afterAStay = lateGoingBack(from: date).afterAStay
        // Found going backward before the first late connection: nearer the end, so first.
        if !stretches.isEmpty { return (afterAStay.map { [$0] } ?? []) + stretches.map(\.late) }
        return (missedAfterAStayUntil ?? afterAStay).map { [$0] } ?? []
    }

    /// In an arrive-by plan, the last walk or car leg that leaves a stay "until" ending after
    /// the traveller must leave to arrive in time (going backward from `deadline`): the stay
    /// holds, so that leg arrives late. `nil` when every such stay ends in time, or a leg after
    /// it is missing or a connection after it is late (`lateConnection`, which comes first).
    public func lateAfterAStayUntil(arrivingBy deadline: Date) -> Int? { lateGoingBack(from: deadline).afterAStay }

    /// One walk backward from `deadline` for both: the first late connection met (then the walk
    /// stops), and the first walk or drive met that leaves a stay "until" ending after it must
    /// leave; each nil when none is met before a missing leg.
    /// Each with `mustArrive`: when the traveller must be at that segment's end to arrive in time.
    private func lateGoingBack(from deadline: Date, node end: Int? = nil)
        -> (connection: Int?, mustArrive: Date?, afterAStay: Int?, afterAStayMustArrive: Date?) {
        var mustLeaveEnd = deadline  // the latest the traveller may leave the end of segment `index`
        var afterAStay: Int?, afterAStayMustArrive: Date?
        for index in stride(from: (end ?? segmentCount) - 1, through: 0, by: -1) {
            guard let leg = legs[index] else { return (nil, nil, afterAStay, afterAStayMustArrive) }
            let mustArrive = index == segmentCount - 1 ? deadline : nodes[index + 1].latestArrival(leavingAt: mustLeaveEnd)
            let fixed = fixedDeparture(ofSegment: index)
            guard let arrival = leg.arrival ?? fixed?.addingTimeInterval(leg.expectedTravelTime) else {
                mustLeaveEnd = mustArrive.addingTimeInterval(-leg.expectedTravelTime)
                if afterAStay == nil, staysPast(mustLeaveEnd, atNode: index) { (afterAStay, afterAStayMustArrive) = (index, mustArrive) }
                continue
            }
            if arrival > mustArrive.addingTimeInterval(Self.connectionSlack) { return (index, mustArrive, afterAStay, afterAStayMustArrive) }
            // A pinned journey whose change a realtime delay broke can't be made as pinned, even
            // arriving in time: it gives way as a late one does (`missedChanges`, the mirror of
            // `firstMissed`), for the latest ride that arrives in time.
            if isPinned(segment: index), leg.brokenChange != nil { return (index, mustArrive, afterAStay, afterAStayMustArrive) }
            mustLeaveEnd = fixed ?? arrival.addingTimeInterval(-leg.expectedTravelTime)
        }
        return (nil, nil, afterAStay, afterAStayMustArrive)
    }

    /// Whether node `index` has a stay "until" that ends after `mustLeave` (a stay of a duration
    /// can always start earlier).
    private func staysPast(_ mustLeave: Date, atNode index: Int) -> Bool {
        guard let end = nodes[index].stay?.untilDate else { return false }
        return end > mustLeave.addingTimeInterval(Self.connectionSlack)
    }

    /// The first fixed departure (a transit leg's, or a pin's) that the traveller cannot catch
    /// whenever they start, because a stay "until" before it ends too late. A depart-at plan's
    /// `missedConnection` finds it on the way; an arrive-by plan, timed backward from its
    /// deadline, has no start to go forward from, so it is checked from the earliest time of all.
    public var missedAfterAStayUntil: Int? { missedConnection(leavingAt: .distantPast) }

    /// The earliest the plan may leave: its "depart at" date, or `now` when it leaves now.
    /// Arrive-by plans have none.
    public func earliestDeparture(now: Date) -> Date? {
        switch timePreference {
        case .departAt(let date): date
        case .leaveNow: now
        case .arriveBy: nil
        }
    }

    /// Adds durations forward from node `start` while legs exist, up to a ride (or pinned walk or
    /// drive) that leaves before the traveller gets to it: they are not on it, so the nodes after
    /// it get no time from it (a missed pin's arrival shown after the walk that missed it read as
    /// earlier than the node before: issue 39 item 6, "no invented times"). Returns the segment
    /// it stopped at for that reason, if any.
    @discardableResult
    private func fillForward(_ times: inout [Date?], from start: Int) -> Int? {
        var index = start
        while index < segmentCount, let time = times[index], let leg = legs[index], times[index + 1] == nil {
            if let departure = fixedDeparture(ofSegment: index),
               nodes[index].leaving(arrivedAt: time) > departure.addingTimeInterval(Self.connectionSlack) { return index }
            // A pinned walk or car leg leaves at its pinned time, as a transit leg at its own.
            let leaving = pinnedStreetDeparture(ofSegment: index) ?? nodes[index].leaving(arrivedAt: time)
            times[index + 1] = leg.arrival ?? leaving.addingTimeInterval(leg.expectedTravelTime)
            index += 1
        }
        return nil
    }

    /// When the traveller gets to the start of `missed` (a dated leg) after it leaves, they are
    /// not on that ride: the nodes after it get no time from it (issue 39 item 6: no invented
    /// times), up to the next pin, whose node says when to be there for it.
    private func forgetTimesAfterAMissedRide(_ times: inout [Date?], segment missed: Int) {
        guard missed < segmentCount, let arrived = times[missed], let departure = fixedDeparture(ofSegment: missed),
              nodes[missed].leaving(arrivedAt: arrived) > departure.addingTimeInterval(Self.connectionSlack) else { return }
        let nextPin = ((missed + 1)..<segmentCount).first { isPinned(segment: $0) } ?? nodes.count
        for node in (missed + 1)..<nextPin { times[node] = nil }
    }

    /// Subtracts durations backward from node `end` while legs exist. A node with a stay "until"
    /// in a plan that departs at a given time is reached going forward from that time instead
    /// (`timeForwardFromTheStart`): the stay holds the traveller there until its end whenever
    /// they arrive, so timing the walks before it back from its end would only move the start
    /// later than asked (issue 39: "depart at 23:30" shown leaving at 00:35 for a stay until 00:40).
    private func fillBackward(_ times: inout [Date?], from end: Int) {
        var index = end - 1
        while index >= 0, let time = times[index + 1], let leg = legs[index], times[index] == nil {
            let latestLeaving = leg.departure ?? time.addingTimeInterval(-leg.expectedTravelTime)
            if nodes[index].stay?.isUntil != true || !timeForwardFromTheStart(&times, to: index) {
                times[index] = nodes[index].latestArrival(leavingAt: latestLeaving)
            }
            if let arrived = times[index], abs(nodes[index].leaving(arrivedAt: arrived).timeIntervalSince(latestLeaving)) > Self.connectionSlack {
                retimeForwardFromAStayEnd(&times, from: index, to: end)
            }
            index -= 1
        }
    }

    /// Whether the undated legs before the first dated segment `index` leave at a depart-at
    /// plan's start rather than as late as that segment allows: one of them is a walk the planner
    /// chose because no ride was sooner (`isPlannersWalk`), and `index` is a ride, not a pin
    /// (a pin is the user's time, which the way to it keeps). The walk was judged leaving at the
    /// start, so it leaves then, and the header and the first leg agree (trial 49 finding 9: a
    /// day plan "depart at 02:30" walked its first hop leaving 04:25, timed back from the 06:10
    /// bus after it); the traveller waits at the stop, as after a ride that arrives early.
    private func leavesAtTheStart(before index: Int) -> Bool {
        guard case .departAt = timePreference, !isPinned(segment: index) else { return false }
        return (0..<index).contains { isPlannersWalk(segment: $0) }
    }

    /// In a depart-at plan, times nodes 0 through `node` forward from its date (the origin at
    /// the date, each next node when the leg before it gets there after the stay before it), when
    /// every leg before `node` exists, none has a time of its own and no node there has a time
    /// yet; returns whether it did (else nothing is set).
    private func timeForwardFromTheStart(_ times: inout [Date?], to node: Int) -> Bool {
        guard case .departAt(let start) = timePreference,
              (0..<node).allSatisfy({ legs[$0] != nil && !isDated($0) && times[$0] == nil }) else { return false }
        var time = start
        times[0] = time
        for index in 0..<node {
            time = nodes[index].leaving(arrivedAt: time).addingTimeInterval(legs[index]?.expectedTravelTime ?? 0)
            times[index + 1] = time
        }
        return true
    }

    /// A stay "until" that ends before the leg after it need leave, or after it should have: the
    /// traveller leaves when it ends, so the undated legs up to `end` are timed forward from
    /// there; a wait falls at the next dated leg's start (as after a ride that arrives early),
    /// not on a walk, and a leg that can then not be caught is a missed connection.
    private func retimeForwardFromAStayEnd(_ times: inout [Date?], from start: Int, to end: Int) {
        var index = start
        while index < end, let time = times[index], let leg = legs[index], !isDated(index) {
            times[index + 1] = nodes[index].leaving(arrivedAt: time).addingTimeInterval(leg.expectedTravelTime)
            index += 1
        }
    }

    /// Door-to-door seconds, waiting and stays included: the last node's time minus the first's. The one
    /// definition of a plan's total (`plan show`, `plan list`, the wire and the store use it);
    /// `nil` unless every leg exists (a partial sum would look faster than reality), and `nil`
    /// while a connection is missed from the requested departure or arrives after the requested
    /// arrival (the plan can't be followed as asked).
    public var totalTravelTime: TimeInterval? {
        let present = legs.compactMap { $0 }
        guard present.count == segmentCount else { return nil }
        // A leave-now plan's connections depend on the moment it is shown; its total does not.
        if timePreference != .leaveNow, brokenConnection(now: .distantPast) != nil { return nil }
        let times = schedule()
        if let first = times.first ?? nil, let last = times.last ?? nil {
            return last.timeIntervalSince(first)
        }
        let stays = nodes.dropLast().reduce(0) { $0 + ($1.stay?.seconds ?? 0) }
        return present.reduce(stays) { $0 + $1.expectedTravelTime }
    }

    /// A plan with late pins (arrive by) or pins missed at a broken change, as the traveller
    /// follows their proposed rides (`followingTheProposals`, whose times the plan shows): its
    /// total; nil when no such pin has a ride proposed (`totalTravelTime` is nil for the plan as pinned: trial 52, "total:
    /// none (it arrives too late)" under node times that arrive in time).
    public var totalTravelTimeFollowingTheProposals: TimeInterval? {
        guard totalTravelTime == nil else { return nil }
        return followingTheProposals(startingAt: nil)?.totalTravelTime
    }

    /// Metres summed over the legs that exist and know their distance.
    public var totalDistance: Double {
        legs.reduce(0) { $0 + ($1?.distance ?? 0) }
    }
}
