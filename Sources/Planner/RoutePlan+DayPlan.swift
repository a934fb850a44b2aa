import Foundation

/// Edits for a day of several places and the user's own choices: time at a stop, undoing a
/// lock, choosing one of a segment's alternatives, joining trips into one day.
/// As every edit, each returns the edited plan, empties only the legs it affects and throws
/// `PlannerError` for bad input (changing nothing).
extension RoutePlan {
    // MARK: - Stays

    /// Sets (or with `nil` clears) the time spent at node `index` before the next leg leaves.
    /// Only the transit legs whose times it moves are emptied, by the rule `computeLegs` times
    /// them with (`segmentsTimed(throughNode:)`): those after the node while they are timed
    /// forward through it, those before it while they are timed backward to it; and those a
    /// stay "until" turns from one way to the other (`emptyLegsRetimed(since:)`). Walk and car
    /// legs carry no times and stay, except the planner's walks (`isPlannersWalk`), which are
    /// asked again so that they are judged again at their new times.
    /// - throws: `nodeIndexOutOfRange`; `invalidStay` at the destination (no leg leaves it) or
    ///   for a negative or non-finite duration.
    public func settingStay(_ stay: NodeStay?, atNode index: Int) throws -> RoutePlan {
        guard nodes.indices.contains(index) else {
            throw PlannerError.nodeIndexOutOfRange(index: index, nodeCount: nodes.count)
        }
        guard index < nodes.count - 1 else {
            throw PlannerError.invalidStay("the destination has no next leg to leave later")
        }
        if case .duration(let seconds) = stay, !(seconds.isFinite && seconds >= 0) {
            throw PlannerError.invalidStay("a stay must be a duration of 0 seconds or more")
        }
        var plan = self
        var node = nodes[index]
        node.stay = stay
        plan.setNode(node, at: index)
        for segment in plan.segmentsTimed(throughNode: index)
        where (modes[segment] == .transit || isPlannersWalk(segment: segment)) && !isPinned(segment: segment) {
            plan.legs[segment] = nil
        }
        plan.emptyLegsRetimed(since: self)
        return plan
    }

    // MARK: - Undoing a decision

    /// Removes the user's lock of segment `index` (and its pin, with any pending update): presets
    /// and refinement may change it again. A removed pin's leg (the user's, kept even when a newer
    /// answer was proposed) and the transit legs that were timed from it are emptied
    /// (`emptyLegsRetimed(since:)`): the recompute times them as a full recompute of the
    /// remaining decisions would. A chosen walk or car route is no longer
    /// the user's choice either: its leg is emptied, to be asked as the engine's own route.
    /// Otherwise no leg changes.
    public func unlocking(segment index: Int) throws -> RoutePlan {
        try checkSegment(index)
        let key = segmentKey(index)
        var plan = self
        if isChosenRoute(segment: index) { plan.legs[index] = nil }
        plan.locks[key] = nil
        if pins[key] != nil {
            plan.pins[key] = nil
            plan.pending[key] = nil
            plan.dismissed[key] = nil
            plan.legs[index] = nil
            plan.emptyLegsRetimed(since: self)
        }
        return plan
    }

    // MARK: - Choosing an alternative

    /// Takes `leg`, one of the segment's alternatives (`Planner.alternatives`): the segment is
    /// locked with the leg's mode and, for a transit leg, pinned to that departure (its trips);
    /// the lock remembers the lines chosen. A walk or car leg replaces the segment's leg (a pinned
    /// one is pinned again with it, at the same departure).
    /// - throws: `segmentIndexOutOfRange`, `noLegToPin` for a transit leg without a departure.
    public func choosingAlternative(_ leg: RouteLeg, ofSegment index: Int) throws -> RoutePlan {
        try checkSegment(index)
        var plan = try changingMode(ofSegment: index, to: leg.mode)
        let lines = leg.rides.map(\.lineName)
        guard leg.mode == .transit else {
            if let pin = plan.pin(ofSegment: index) {
                // Pinned, the segment keeps its departure with the route chosen now.
                return try plan.pinningDeparture(ofSegment: index, to: leg, departingAt: pin.departure)
            }
            plan.legs[index] = leg
            plan.locks[segmentKey(index)]?.duration = leg.expectedTravelTime  // a chosen route (`isChosenRoute`)
            return plan
        }
        guard let departure = leg.departure else { throw PlannerError.noLegToPin(segment: index) }
        // The option may board (alight) at another stop than the one the planner inferred for
        // the ride it replaces: the traveller walks straight to the option's stop.
        let taken = plan.takingStops(of: leg, ofSegment: index)
        plan = try taken.plan.pinningDeparture(ofSegment: index, to: taken.leg, departingAt: taken.leg.departure ?? departure)
        plan.locks[plan.segmentKey(index)]?.chosenLines = lines
        return plan
    }

    /// Whether segment `index` rides other lines than the user chose (`SegmentLock.chosenLines`):
    /// the user accepted a proposal on another line (tram 3 for the cancelled bus 7). The choice
    /// is kept and shown as replaced ("line choice 7 replaced by tram 3"), so accepting another
    /// line is never a silent change. False without a choice or a leg with rides.
    public func ridesAnotherLineThanChosen(segment index: Int) -> Bool {
        guard legs.indices.contains(index), let chosen = lock(ofSegment: index)?.chosenLines, !chosen.isEmpty,
              let rides = legs[index]?.rides, !rides.isEmpty else { return false }
        return rides.map(\.lineName) != chosen
    }

    // MARK: - Titles

    /// "Home → Work → Shop → Home": the places the user chose, in order (inferred stops left
    /// out); the title a plan gets when none is given.
    public var generatedTitle: String {
        nodes.filter { !$0.isInferred }.map(\.place.name).joined(separator: " → ")
    }

    /// The title once `swappingEnds` has reversed this plan: a generated one (the plan's place
    /// names joined by " → ", from the origin to the destination) is reversed too; a title the
    /// user set stays.
    public func titleAfterSwap(_ title: String) -> String {
        let parts = title.components(separatedBy: " → ")
        let names = nodes.map(\.place.name)
        guard parts.count >= 2, parts.first == names.first, parts.last == names.last,
              parts.allSatisfy(names.contains) else { return title }
        return parts.reversed().joined(separator: " → ")
    }

    // MARK: - A day of several places

    /// One plan through every part in order: each part's destination must be the next one's
    /// origin (that node appears once). The first part's time preference and pace apply; every
    /// leg is empty.
    /// - throws: `tooFewNodes` for no parts, `samePlaceTwice` when the parts don't meet or two
    ///   neighbours are the same place.
    public static func joining(_ parts: [RoutePlan]) throws -> RoutePlan {
        guard let first = parts.first else { throw PlannerError.tooFewNodes(0) }
        var nodes = first.nodes
        var modes = first.modes
        for part in parts.dropFirst() {
            guard let last = nodes.last, last.place.id == part.nodes[0].place.id else {
                throw PlannerError.samePlaceTwice(placeID: part.nodes[0].place.id, name: part.nodes[0].place.name)
            }
            nodes += part.nodes.dropFirst()
            modes += part.modes
        }
        for index in 0..<(nodes.count - 1) { try checkNoSamePlaceTwice(nodes, around: index + 1) }
        return try RoutePlan(nodes: nodes, modes: modes, timePreference: first.timePreference, pace: first.pace,
                             access: first.access)
    }
}
