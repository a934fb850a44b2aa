import Foundation

/// Several options for one segment, and plans through several places.
extension Planner {
    // MARK: - Alternatives

    /// Up to `count` options for segment `index` leaving at `time`, by default its current time
    /// (the plan's `departureTimes`, else its leg's departure, else now), of the segment's mode:
    /// for transit the next departures and the journeys with fewer transfers, in departure order.
    /// A transit segment an arrive-by plan times back (`arrivingInTime`) without `time` lists
    /// instead the options arriving by when the traveller must be at its end: the latest
    /// departures that make it and the journeys with fewer transfers.
    /// None is alike another or beaten by one (`AlternativeRows`); `keepingBeaten` keeps them
    /// (a search by line wants its line's option whatever another line does). One routing query.
    /// - throws: `PlannerError` for a bad segment, the `RoutingError` when none is found, `CancellationError`.
    /// `listedFrom`: the segment's `optionsTime` when the caller has it already (it asks queries).
    /// `riding`: only journeys whose every ride is of that line (`LegQuery.riding`), for a line pin.
    public func alternatives(for plan: RoutePlan, segment index: Int, count: Int, at time: Date? = nil,
                             listedFrom: Date? = nil, keepingBeaten: Bool = false, riding line: String? = nil) async throws -> [RouteLeg] {
        try plan.checkSegment(index)
        var start = time ?? plan.legs[index]?.departure ?? clock.now()
        if time == nil {
            let from: Date? = if let listedFrom { listedFrom } else { try await optionsTime(ofSegment: index, in: plan) }
            if let from { start = from }
        }
        try Task.checkCancellation()
        let timing: LegTiming = time == nil ? Self.arrivingInTime(plan, segment: index).map { .arriveBy($0) } ?? .departAt(start)
            : .departAt(start)
        // A pin that gave way lists from where the traveller is, as its proposal is asked; so does
        // a line's own search (a line pin): its stop may be another one around the place than the
        // one inferred for the plan's ride (bus 6 at 08:36:30 from Koskipuisto C, 4 min from
        // Keskustori, was missed asked from Frenckell, inferred for bus 29).
        let gaveWay = time == nil && plan.isPinned(segment: index) && plan.pendingUpdate(ofSegment: index) != nil
        var asked = (gaveWay || line != nil) && timing.isDepartAt ? queryFromTheTravellersPlace(plan, index, .departAt(start))
            : query(plan, index, timing)
        asked.riding = line
        let found = try await routing.alternatives(for: asked, count: max(1, count))
        let options = keepingBeaten ? found : AlternativeRows.undominated(found, start: start)
        // By departure, then arrival; options without times (walk, car) keep the engine's order.
        let ordered = options.enumerated().sorted {
            ($0.element.departure ?? start, $0.element.arrival ?? start, $0.offset)
                < ($1.element.departure ?? start, $1.element.arrival ?? start, $1.offset)
        }
        let kept = ordered.map(\.element)
        return timing.isDepartAt ? Array(kept.prefix(max(1, count))) : Array(kept.suffix(max(1, count)))
    }

    /// When the traveller must be at the end of transit segment `index` of an arrive-by plan that
    /// times it back from its arrival (or a pin after it): options arriving later break the plan
    /// (trial 56: `plan alternatives` of "Keskustori → Hervanta by 09:20" listed four options
    /// arriving too late, not bus 6 alone leaving a minute before the plan's bus 8 and 6). Nil
    /// for another segment (its options are the next departures from when it leaves).
    /// A pin of an arrive-by plan that gave way (a proposal pending) lists so too: its proposal
    /// is the latest ride arriving in time (`proposingInTime`, trial 59 F1).
    static func arrivingInTime(_ plan: RoutePlan, segment index: Int) -> Date? {
        guard plan.modes[index] == .transit else { return nil }
        let gaveWay: Bool
        if case .arriveBy = plan.timePreference {
            gaveWay = plan.isPinned(segment: index) && plan.pendingUpdate(ofSegment: index) != nil
        } else {
            gaveWay = false
        }
        guard plan.timingSource(ofSegment: index).isBackward || gaveWay else { return nil }
        return dueAtTheEnd(ofSegment: index, in: plan)
    }

    /// When the traveller must be at the end of segment `index` of an arrive-by plan for the
    /// legs after it to arrive in time (the deadline, for the last); nil when not known.
    static func dueAtTheEnd(ofSegment index: Int, in plan: RoutePlan) -> Date? {
        guard let leaving = plan.latestDepartures()[index + 1] else { return nil }
        return index + 1 == plan.segmentCount ? leaving : plan.nodes[index + 1].latestArrival(leavingAt: leaving)
    }

    /// Pins segment `index` to a ride of `line`: with `time`, the one leaving its stop in that
    /// minute, else the next (`rideLeaving(inTheMinuteOf:)`, as `plan pin` reads a time). Without,
    /// the plan's own ride when it rides `line`; else, among the options riding it
    /// (`options(riding:)`), the earliest arrival from the segment's current time on, or in a
    /// segment an arrive-by plan times back (`arrivingInTime`) the latest departure among those
    /// that keep the deadline (trial 58 F3: the first of the options arriving in time left an
    /// hour early). The lock remembers the line.
    /// - throws: `noDepartureOnLine` when none is found; as `alternatives`.
    public func pinning(_ plan: RoutePlan, segment index: Int, line: String, at time: Date? = nil) async throws -> RoutePlan {
        if let time, plan.modes.indices.contains(index), plan.modes[index] == .transit {
            let ride = try await rideLeaving(inTheMinuteOf: time, segment: index, of: plan, line: line)
            return try await timingTheWayToAShownPinBack(try plan.choosingAlternative(ride, ofSegment: index), segment: index)
        }
        try plan.checkSegment(index)
        if time == nil, plan.modes[index] == .transit, let shown = plan.legs[index], shown.mode == .transit, shown.departure != nil,
           shown.rides.contains(where: { $0.lineName == line }) {
            return try await timingTheWayToAShownPinBack(try plan.choosingAlternative(shown, ofSegment: index), segment: index)
        }
        let ofLine = try await options(riding: line, for: plan, segment: index, at: time)
        // Depart-at: the earliest arrival, then the latest departure; arrive-by: the latest departure,
        // then the earliest arrival (options without times keep the list's order).
        func arrival(_ leg: RouteLeg) -> Date { leg.arrival ?? .distantFuture }
        func departure(_ leg: RouteLeg) -> Date { leg.departure ?? .distantPast }
        let chosen = time == nil && Self.arrivingInTime(plan, segment: index) != nil
            ? ofLine.min { (departure($1), arrival($0)) < (departure($0), arrival($1)) }
            : ofLine.min { (arrival($0), departure($1)) < (arrival($1), departure($0)) }
        guard let chosen else { throw PlannerError.noDepartureOnLine(line: line, segment: index) }
        return try await timingTheWayToAShownPinBack(try plan.choosingAlternative(chosen, ofSegment: index), segment: index)
    }

    /// Up to `lineSearchWidth` options each of segment `index` riding `line`, as `alternatives`
    /// lists them (`at`, beaten ones kept), in departure order: the engine's journeys on that line
    /// alone, which another line may beat, and the ordinary options that ride it with others. A
    /// line pin is the user's decision: picked from the ordinary list alone, bus 6 at 08:38 from
    /// Keskustori to TAYS A was never offered, buses 29 and 11 arriving sooner, and `--line 6`
    /// pinned the 09:28, "no bus 6 you can catch leaves at 08:48" (trial 60 F1).
    /// - throws: the ordinary search's error when neither search finds one; `CancellationError`.
    func options(riding line: String, for plan: RoutePlan, segment index: Int, at time: Date?) async throws -> [RouteLeg] {
        func ridesTheLine(_ leg: RouteLeg) -> Bool { leg.rides.contains { $0.lineName == line } }
        // Both searches list from the segment's options time: asked once (it asks queries).
        let listedFrom = time == nil ? try await optionsTime(ofSegment: index, in: plan) : nil
        var own: [RouteLeg] = []
        do {
            own = try await alternatives(for: plan, segment: index, count: configuration.lineSearchWidth, at: time,
                                         listedFrom: listedFrom, keepingBeaten: true, riding: line).filter(ridesTheLine)
        } catch is RoutingError {
            // The line alone does not make the journey (it needs another line too): the ordinary options.
        }
        let mixed: [RouteLeg]
        do {
            mixed = try await alternatives(for: plan, segment: index, count: configuration.lineSearchWidth, at: time,
                                           listedFrom: listedFrom, keepingBeaten: true).filter(ridesTheLine)
        } catch is RoutingError where !own.isEmpty {
            mixed = []
        }
        var seen = Set<[String]>()
        let all = (own + mixed).filter { seen.insert($0.tripIDs + [$0.departure.map { "\($0.timeIntervalSince1970)" } ?? ""]).inserted }
        return all.enumerated().sorted {
            ($0.element.departure ?? .distantPast, $0.element.arrival ?? .distantPast, $0.offset)
                < ($1.element.departure ?? .distantPast, $1.element.arrival ?? .distantPast, $1.offset)
        }.map(\.element)
    }

    // MARK: - A day of several places

    /// Builds a plan through every place in order (home → work → shop → home): each pair is
    /// prepared as `buildPlan` would (transit gets its nearest stops), the pairs are joined, and
    /// the legs computed in one run, so each leg starts when the previous one (and the stay
    /// between) ends. `.fastest` measures the walk, transit and car variants of the whole day.
    /// - throws: `tooFewNodes` for fewer than two places, `samePlaceTwice` for two equal neighbours.
    public func buildPlanReporting(through places: [PlanNode], preset: PlanPreset, timePreference: TimePreference,
                                   pace: WalkingPace, access: AccessNeed = .any,
                                   currentLocation: Coordinate? = nil) async throws -> LegComputation {
        guard places.count >= 2 else { throw PlannerError.tooFewNodes(places.count) }
        if places.count == 2 {
            return try await buildPlanReporting(from: places[0], to: places[1], preset: preset, timePreference: timePreference,
                                                pace: pace, access: access, currentLocation: currentLocation)
        }
        var parts: [RoutePlan] = []
        for (from, to) in zip(places, places.dropFirst()) {
            parts.append(try await initialPlan(from: from, to: to, mode: preset.mode ?? .transit, timePreference: timePreference,
                                               pace: pace, access: access, currentLocation: currentLocation))
        }
        let day = try RoutePlan.joining(parts)
        guard preset == .fastest else {
            let computed = try await computeLegsReporting(day, currentLocation: currentLocation)
            // A day by transit rides only where that is faster than walking (the rule of presets).
            return preset == .transit ? try await walkingHopsNoSlower(in: computed, currentLocation: currentLocation) : computed
        }
        return LegComputation(plan: try await applyingPreset(.fastest, to: day, currentLocation: currentLocation),
                              failures: [], queryCount: 0)
    }
}

extension RoutingPort {
    /// An engine that knows only one answer per question gives that one.
    public func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] {
        [try await leg(for: query)]
    }
}
