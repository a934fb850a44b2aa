import Foundation

/// Builds plans and fills their legs through the routing port. Knows no engine, database or
/// socket: the composition root hands it a `RoutingPort` and a `WallClock`.
///
/// ```swift
/// let planner = Planner(routing: router, clock: SystemClock())
/// var plan = try await planner.buildPlan(from: home, to: office, preset: .transit,
///                                        timePreference: .leaveNow, pace: .normal)
/// plan = try await planner.refine(plan)
/// plan = try await planner.computeLegs(try plan.changingMode(ofSegment: 0, to: .car))
/// ```
///
/// Queries are sequential (each depends on the previous arrival). Cancellation is checked
/// before every query and `CancellationError` is always rethrown, never swallowed.
public struct Planner: Sendable {
    public let routing: any RoutingPort
    public let clock: any WallClock
    public let configuration: PlannerConfiguration

    public init(routing: any RoutingPort, clock: any WallClock, configuration: PlannerConfiguration = .init()) {
        self.routing = routing
        self.clock = clock
        self.configuration = configuration
    }

    // MARK: - Building

    /// Builds a plan from origin to destination with the preset's modes and computes its legs.
    /// A transit plan gets the nearest stop inserted at each end (`isInferred`); `.fastest`
    /// compares walk, transit and car (`PlanPreset.fastestCandidates`) and returns the quickest complete plan.
    /// - throws: `PlannerError` for bad places, `RoutingError` when stop lookup fails,
    ///   `PlannerError.noModeAvailable` when `.fastest` finds nothing, `CancellationError`.
    public func buildPlan(from origin: Place, to destination: Place, preset: PlanPreset,
                          timePreference: TimePreference, pace: WalkingPace, access: AccessNeed = .any) async throws -> RoutePlan {
        try await buildPlan(from: PlanNode(place: origin), to: PlanNode(place: destination), preset: preset,
                            timePreference: timePreference, pace: pace, access: access)
    }

    /// Same, with node flags (e.g. an origin that is the current location).
    public func buildPlan(from origin: PlanNode, to destination: PlanNode, preset: PlanPreset,
                          timePreference: TimePreference, pace: WalkingPace, access: AccessNeed = .any,
                          currentLocation: Coordinate? = nil) async throws -> RoutePlan {
        try await buildPlanReporting(from: origin, to: destination, preset: preset, timePreference: timePreference,
                                     pace: pace, access: access, currentLocation: currentLocation).plan
    }

    /// Builds a plan like `buildPlan` and says why a leg is still empty, so the caller never
    /// has to ask again. With `.fastest` the chosen plan is complete (no failures) and
    /// `queryCount` is 0: `compare` does not count its queries.
    public func buildPlanReporting(from origin: PlanNode, to destination: PlanNode, preset: PlanPreset,
                                   timePreference: TimePreference, pace: WalkingPace, access: AccessNeed = .any,
                                   currentLocation: Coordinate? = nil) async throws -> LegComputation {
        guard let mode = preset.mode else {
            let comparisons = try await compare(from: origin, to: destination, timePreference: timePreference,
                                                pace: pace, access: access, currentLocation: currentLocation,
                                                modes: PlanPreset.fastestCandidates)
            guard let fastest = comparisons.first(where: \.isFastest)?.plan else {
                throw PlannerError.noModeAvailable
            }
            return LegComputation(plan: fastest, failures: [], queryCount: 0)
        }
        let computed = try await computeLegsReporting(
            try await initialPlan(from: origin, to: destination, mode: mode, timePreference: timePreference,
                                  pace: pace, access: access, currentLocation: currentLocation, stopsFromTheDoor: true),
            currentLocation: currentLocation)
        // Two places by transit are the user's choice: the ride stays, and says when walking is no
        // slower (`computeLegsReporting` judged it, as every recompute that asks the ride does).
        return computed
    }

    /// Throws the plan away except its two ends and builds it again with `preset`
    /// (keeping time preference, pace and access; locks and inserted stops go).
    public func rebuild(_ plan: RoutePlan, preset: PlanPreset, currentLocation: Coordinate? = nil) async throws -> RoutePlan {
        guard let origin = plan.nodes.first, let destination = plan.nodes.last else {
            throw PlannerError.tooFewNodes(plan.nodes.count)
        }
        return try await buildPlan(from: origin, to: destination, preset: preset,
                                   timePreference: plan.timePreference, pace: plan.pace, access: plan.access,
                                   currentLocation: currentLocation)
    }

    /// Walk, transit, car and bike from `origin` to `destination`: each a built plan or the routing
    /// error that stopped it (transit "unsupported here" does not stop the others). The quickest
    /// complete plan is marked `isFastest`.
    public func compare(from origin: Place, to destination: Place, timePreference: TimePreference,
                        pace: WalkingPace, access: AccessNeed = .any) async throws -> [ModeComparison] {
        try await compare(from: PlanNode(place: origin), to: PlanNode(place: destination),
                          timePreference: timePreference, pace: pace, access: access)
    }

    /// Same, with node flags, for `modes` (default: all four, in this order). The modes are
    /// independent, so they are asked at once: the answer takes as long as the slowest mode,
    /// not the sum of all of them. A street leg two modes need alike (`StreetLegShare`) is
    /// asked once.
    public func compare(from origin: PlanNode, to destination: PlanNode, timePreference: TimePreference,
                        pace: WalkingPace, access: AccessNeed = .any, currentLocation: Coordinate? = nil,
                        modes: [TravelMode] = Planner.comparedModes) async throws -> [ModeComparison] {
        let share = StreetLegShare()
        var results = try await withThrowingTaskGroup(of: (Int, ModeComparison).self) { group in
            for (index, mode) in modes.enumerated() {
                group.addTask {
                    (index, try await comparison(of: mode, from: origin, to: destination, timePreference: timePreference,
                                                 pace: pace, access: access, currentLocation: currentLocation, share: share))
                }
            }
            var found = [ModeComparison?](repeating: nil, count: modes.count)
            for try await (index, comparison) in group { found[index] = comparison }
            return found.compactMap { $0 }
        }
        let times = results.map { $0.travelTime ?? .infinity }
        if let fastest = times.indices.min(by: { times[$0] < times[$1] }), times[fastest].isFinite {
            results[fastest].isFastest = true
        }
        return Self.judgingTransitAgainstTheWalk(results, timePreference: timePreference, now: clock.now())
    }

    /// A comparison's transit says "walking the whole way is no slower" exactly when its walk
    /// option, door to door, arrives no later (leaves no earlier, arriving by a time): each ride
    /// judged only its own stretch between stops, and the walk option is the answer to compare.
    static func judgingTransitAgainstTheWalk(_ results: [ModeComparison], timePreference: TimePreference,
                                             now: Date) -> [ModeComparison] {
        guard let walk = results.first(where: { $0.mode == .walk })?.plan,
              let index = results.firstIndex(where: { $0.mode == .transit }), var transit = results[index].plan else { return results }
        let start = timePreference == .leaveNow ? now : nil
        let walked = walk.schedule(startingAt: start), ridden = transit.schedule(startingAt: start)
        guard let walkStart = walked.first ?? nil, let walkEnd = walked.last ?? nil,
              let rideStart = ridden.first ?? nil, let rideEnd = ridden.last ?? nil else { return results }
        let noSlower = if case .arriveBy = timePreference { walkStart >= rideStart } else { walkEnd <= rideEnd }
        for segment in transit.legs.indices where transit.legs[segment]?.mode == .transit {
            transit.legs[segment]?.walkingIsNoSlower = noSlower
        }
        var judged = results
        judged[index].result = .success(transit)
        return judged
    }

    /// What `compare` shows, in its order: the three first modes keep their places, the bike comes last.
    public static let comparedModes: [TravelMode] = [.walk, .transit, .car, .bike]

    /// One mode of a comparison: its plan, or the routing error that stopped it.
    private func comparison(of mode: TravelMode, from origin: PlanNode, to destination: PlanNode,
                            timePreference: TimePreference, pace: WalkingPace, access: AccessNeed,
                            currentLocation: Coordinate?, share: StreetLegShare) async throws -> ModeComparison {
        try Task.checkCancellation()
        do {
            let plan = try await initialPlan(from: origin, to: destination, mode: mode,
                                             timePreference: timePreference, pace: pace, access: access,
                                             currentLocation: currentLocation, stopsFromTheDoor: true)
            if let tooFar = tooFar(plan, mode: mode) { return ModeComparison(mode: mode, result: .failure(tooFar)) }
            let computed = try await computeLegsReporting(plan, currentLocation: currentLocation, sharing: share)
            if let failure = computed.failures.first { return ModeComparison(mode: mode, result: .failure(failure.error)) }
            return ModeComparison(mode: mode, result: .success(computed.plan))
        } catch let error as RoutingError {
            return ModeComparison(mode: mode, result: .failure(error))
        }
    }

    /// `tooFar` when the plan's ends (the current location already put in) are farther apart
    /// than `mode` is compared for; nil when the mode has no limit or is within it.
    private func tooFar(_ plan: RoutePlan, mode: TravelMode) -> RoutingError? {
        guard let limit = configuration.comparedDistanceLimits[mode], let first = plan.nodes.first,
              let last = plan.nodes.last else { return nil }
        let straightLine = first.place.coordinate.distance(to: last.place.coordinate)
        return straightLine > limit ? .tooFar(mode: mode, straightLineMetres: straightLine, limitMetres: limit) : nil
    }

    /// The plan before any leg is computed: two ends, plus for transit the stops to walk to and
    /// from: with `stopsFromTheDoor`, those of a journey asked from the door
    /// (`stopsOfAJourneyFromTheDoor`), else (or when it finds none) the nearest ones.
    func initialPlan(from origin: PlanNode, to destination: PlanNode, mode: TravelMode,
                     timePreference: TimePreference, pace: WalkingPace, access: AccessNeed = .any,
                     currentLocation: Coordinate?, stopsFromTheDoor: Bool = false) async throws -> RoutePlan {
        var origin = origin, destination = destination
        if let currentLocation, currentLocation.isValid {
            if origin.isCurrentLocation { origin.place.coordinate = currentLocation }
            if destination.isCurrentLocation { destination.place.coordinate = currentLocation }
        }
        try RoutePlan.checkCoordinate(origin.place)
        try RoutePlan.checkCoordinate(destination.place)
        guard origin.place.id != destination.place.id else {
            throw PlannerError.samePlaceTwice(placeID: origin.place.id, name: origin.place.name)
        }
        guard mode == .transit else {
            return try RoutePlan(nodes: [origin, destination], modes: [mode], timePreference: timePreference, pace: pace, access: access)
        }
        // An end that is itself a stop gets none; another, the stop its journey uses if any.
        var boarding = try await accessStop(for: origin.place, otherEnd: destination.place)
        var alighting = try await accessStop(for: destination.place, otherEnd: origin.place)
        if stopsFromTheDoor, boarding != nil || alighting != nil,
           let journeyStops = try await stopsOfAJourneyFromTheDoor(from: origin.place, to: destination.place,
                                                                   timePreference: timePreference, pace: pace, access: access) {
            if boarding != nil { boarding = journeyStops.boarding }
            if alighting != nil { alighting = journeyStops.alighting }
        }
        // Walk → transit → walk (one ride when both ends walk to the same stop), as a ride set
        // by hand walks to a stop the engine cannot reach from its place (`walkingToItsStops`).
        let ride = try RoutePlan(nodes: [origin, destination], modes: [.transit], timePreference: timePreference, pace: pace, access: access)
        return ride.walkingToItsStops(ride: 0, boarding: boarding, alighting: alighting).plan
    }

    /// The stops a journey from the door uses: the engine asked from `origin` to `destination`
    /// at the plan's time (the daemon times its walks at the ends on the streets) boards its
    /// first ride at one stop and leaves its last at another, which a traveller would walk to and
    /// from; the stop nearest the door may be a tram stop beside the bus stop they need, and a
    /// ride asked from it found the latest departure from there, not from the door (an arrive-by
    /// `compare Pyynikintori Kaleva` left 2 minutes early to walk 626 m instead of 256 m). A stop
    /// within `endIsStopMetres` of its place is no stop to walk to (nil). Nil as a whole when the
    /// engine finds no journey: the nearest stops then.
    /// - throws: only `CancellationError`.
    func stopsOfAJourneyFromTheDoor(from origin: Place, to destination: Place, timePreference: TimePreference,
                                    pace: WalkingPace, access: AccessNeed) async throws -> (boarding: Place?, alighting: Place?)? {
        let timing: LegTiming = switch timePreference {
        case .leaveNow: .departAt(clock.now())
        case .departAt(let date): .departAt(date)
        case .arriveBy(let date): .arriveBy(date)
        }
        let query = LegQuery(from: origin, to: destination, mode: .transit, timing: timing, pace: pace, access: access)
        guard case .success(let journey) = try await leg(for: query) else { return nil }
        return stops(of: journey, from: origin, to: destination)
    }

    /// The stops `journey` from `origin` to `destination` boards its first ride at and leaves
    /// its last at, as stops to walk to and from (`stopsOfAJourneyFromTheDoor`): nil for an end
    /// that is a stop itself or within `endIsStopMetres` of the stop. Nil as a whole without rides.
    func stops(of journey: RouteLeg, from origin: Place, to destination: Place) -> (boarding: Place?, alighting: Place?)? {
        guard let first = journey.rides.first, let last = journey.rides.last else { return nil }
        func stop(_ call: TransitStopCall, beside place: Place) -> Place? {
            guard place.kind != .transitStop, call.coordinate.distance(to: place.coordinate) > configuration.endIsStopMetres
            else { return nil }
            return call.place
        }
        return (stop(first.boarding, beside: origin), stop(last.alighting, beside: destination))
    }

    /// The stop to walk to from `place` (`AccessStops.stop(towards:)`): the nearest one, or for
    /// long trips the nearest train station among the nearby stops. `nil` when there is none, or
    /// `place` already is a stop.
    func accessStop(for place: Place, otherEnd: Place) async throws -> Place? {
        try await accessStops(around: place).stop(towards: otherEnd)
    }

    // MARK: - Pinning

    /// Pins segment `index` of `plan` at `departure`: a walk or drive leaving then; a ride leaving
    /// its stop in that minute, else the next (`rideLeaving(inTheMinuteOf:)`), whose stops the
    /// planner inferred beside it become its own, as a chosen option's do (`takingStops`: re-pinned
    /// to bus 95X, the node stayed Rautatieasema C, a walk from E away, trial 55 finding 6); then
    /// pinned (`RoutePlan.pinningDeparture(ofSegment:to:departingAt:)`). The other legs are emptied
    /// for `computeLegs`. A walk the planner chose says why at the pinned time (`notingPinnedPlannersWalk`).
    /// - throws: `PlannerError` for a bad segment, the `RoutingError` when no leg is found, `CancellationError`.
    public func pinning(_ plan: RoutePlan, segment index: Int, at departure: Date) async throws -> RoutePlan {
        try plan.checkSegment(index)
        guard plan.modes[index] == .transit else {
            let leg = try await leg(for: query(plan, index, .departAt(departure))).get()
            let pinned = try plan.pinningDeparture(ofSegment: index, to: leg, departingAt: departure)
            return try await notingPinnedPlannersWalk(ofSegment: index, in: pinned, at: departure)
        }
        let ride = try await rideLeaving(inTheMinuteOf: departure, segment: index, of: plan, line: nil)
        let taken = plan.takingStops(of: ride, ofSegment: index)
        return try await timingTheWayToAShownPinBack(
            try taken.plan.pinningDeparture(ofSegment: index, to: taken.leg, departingAt: taken.leg.departure ?? departure),
            segment: index)
    }

    /// `pinned`, whose segment `index` was just pinned to the ride it showed (its other legs kept,
    /// `RoutePlan.pinningDeparture(ofSegment:to:departingAt:)`), with the legs between the pin
    /// before it (or the start) and this one timed back from the pin as late as they can be, as
    /// `plan refresh` times them, when a stay lies on that way and the traveller then leaves in a
    /// later minute (trial 58 F4: after a 45-min stay the kept legs left 07:30, refreshed 07:39).
    /// The ride after a stay was asked from the stay's end, so the legs before it, asked forward,
    /// may leave earlier than the pin needs; without a stay they lead straight to the ride and
    /// stay as shown (asked again, they took other stops and lines, session 57's tester).
    /// A plan whose legs before the pin were emptied (another ride) or that follows the traveller
    /// (a current-location node) is returned as it is. The daemon's `plan choose` calls it too.
    /// - throws: only `CancellationError`.
    public func timingTheWayToAShownPinBack(_ pinned: RoutePlan, segment index: Int) async throws -> RoutePlan {
        let from = pinned.pinnedSegmentIndices.filter { $0 < index }.max().map { $0 + 1 } ?? 0
        guard pinned.isPinned(segment: index), from < index, (from..<index).allSatisfy({ pinned.legs[$0] != nil }),
              (from + 1...index).contains(where: { pinned.nodes[$0].stay != nil }),
              !pinned.nodes.contains(where: \.isCurrentLocation), let kept = pinned.departureTimes()[from] else { return pinned }
        var emptied = pinned
        for segment in from..<index { emptied.legs[segment] = nil }
        let asked = try await computeLegs(emptied)
        guard asked.nodes.count == pinned.nodes.count, (0..<asked.segmentCount).allSatisfy({ asked.legs[$0] != nil }),
              asked.pending.isEmpty, let later = asked.departureTimes()[from],
              ShownTime.minute(later) > ShownTime.minute(kept) else { return pinned }
        return asked
    }

    // MARK: - Computing legs

    /// Fills the empty legs in order; legs already present are not queried again.
    /// - parameter currentLocation: the latest accepted fix; current-location nodes move to it.
    /// - throws: only `CancellationError`; a failed query leaves its leg empty.
    public func computeLegs(_ plan: RoutePlan, currentLocation: Coordinate? = nil) async throws -> RoutePlan {
        try await computeLegsReporting(plan, currentLocation: currentLocation).plan
    }

    /// `computeLegs`, also saying which segments failed and why.
    ///
    /// Timing: without a pin, "leave now" / "depart at" walk forward with a time cursor (each
    /// empty segment is queried "depart at" the cursor; a present leg just advances it: transit
    /// to its arrival, walk/car by its duration), and "arrive by" walks backward from the date.
    /// With pins (one per segment at most), each is re-found first (`matchingLeg`), segments
    /// before the first are queried "arrive by" it (those before a stay "until" go forward from
    /// the start), and segments after a pin "depart at" its arrival, up to the next pin.
    public func computeLegsReporting(_ plan: RoutePlan, currentLocation: Coordinate? = nil) async throws -> LegComputation {
        try await computeLegsReporting(plan, currentLocation: currentLocation, sharing: nil)
    }

    /// `computeLegsReporting`; with a share (the modes of a comparison), street legs are shared
    /// with the other runs and a transit leg's access and egress walks are asked at once.
    func computeLegsReporting(_ plan: RoutePlan, currentLocation: Coordinate?, sharing share: StreetLegShare?) async throws
        -> LegComputation {
        let computed = try await computeLegsOnce(plan, currentLocation: currentLocation, sharing: share)
        return try await ridingEachTripAsOneRide(computed, sharing: share)
    }

    /// One pass of `computeLegsReporting`: the legs filled, and their notes.
    func computeLegsOnce(_ plan: RoutePlan, currentLocation: Coordinate?, sharing share: StreetLegShare?) async throws
        -> LegComputation {
        // Dismissals are forgotten by what the edit emptied, before a location fix empties the
        // legs beside the traveller: a fix alone never brings a dismissed proposal back.
        let edited = plan.forgettingDismissalsOfEmptiedLegs()
        let located = currentLocation.map { edited.resolvingCurrentLocation($0) } ?? edited
        // A detour left out makes the traveller earlier after it (later before it, timed back):
        // the transit legs it retimes are asked again, as a recompute from scratch asks them.
        var run = LegRun(plan: located.removingDetours(retimingTransit: true).plan, share: share)
        if !run.plan.pinnedSegmentIndices.isEmpty {
            let before = run
            try await fillAroundPins(run: &run)
            // A pinned ride whose stop was taken back from the one an edit chose, and missed from
            // there: the traveller can't get to it in time, so the stop stays the one chosen from
            // the new neighbour and the next ride they can catch is proposed from it, never from
            // the pinned ride's stop after a walk nobody makes (trial 47 F8: 9.7 km back to
            // Sorin aukio C). The run is done again keeping the stops chosen.
            if run.movedStopsForPins.contains(where: { run.plan.pending[run.plan.segmentKey($0)] != nil }) {
                let queries = run.queryCount
                run = before
                run.queryCount += queries
                run.keepsStopsChosenForPins = true
                try await fillAroundPins(run: &run)
            }
            try await choosingThePinnedTripsNearestStops(run: &run)
            await droppingProposalsOfPinsCaught(run: &run)
        } else {
            switch run.plan.timePreference {
            case .leaveNow:
                try await fillForward(from: 0, departingAt: run.plan.nodes[0].leaving(arrivedAt: clock.now()), run: &run)
            case .departAt(let date):
                try await fillForward(from: 0, departingAt: run.plan.nodes[0].leaving(arrivedAt: date), run: &run)
            case .arriveBy(let date):
                try await fillBackward(before: run.plan.segmentCount, arrivingBy: date, run: &run)
            }
        }
        // Stops the run moved may have made a there-and-back walk: leave it out.
        let (plan, origins) = run.plan.removingDetours(retimingTransit: false)
        let failures = run.failures.compactMap { failure in
            origins.firstIndex(of: failure.segment).map { SegmentFailure(segment: $0, error: failure.error) }
        }
        var noted = plan.forgettingWaysToPinsGone()
        noted.settingRoutingErrors(failures)  // stored with the plan: `plan show` says why after a restart too
        // A note an older daemon stored as words (before migration 0020) has no figures to follow
        // its leg: asked again, the segment loses those words and is judged again below (trial 54:
        // "34 min door to door" stayed under "transit 27 min" through `plan refresh`).
        for index in 0..<noted.segmentCount where run.asked.contains(origins[index]) {
            noted.forgettingStoredWords(ofSegment: index)
        }
        // A ride the user chose stays theirs; asked again, it says when walking is no slower.
        // A pinned ride kept as it was is judged again too while it says so: its note was
        // judged from when it was asked (the time pinned at, an earlier start), and the plan
        // may now reach its stop later (a missed pin), when walking is slower.
        for index in 0..<noted.segmentCount where noted.lock(ofSegment: index)?.mode == .transit {
            let keptSayingNoSlower = noted.isPinned(segment: index) && noted.legs[index]?.walkingIsNoSlower == true
            guard run.asked.contains(origins[index]) || keptSayingNoSlower else { continue }
            noted = try await notingWalkingNoSlower(ofSegment: index, in: noted)
        }
        let retimed = Set(origins.indices.filter { run.retimed.contains(origins[$0]) || run.asked.contains(origins[$0]) })
        var computed = LegComputation(plan: noted, failures: failures.sorted { $0.segment < $1.segment }, queryCount: run.queryCount,
                                      retimed: retimed)
        // A plan of two places by transit says on its ride when walking end to end is no slower
        // (`notingWalkingNoSlowerEndToEnd`); a recompute that asks that ride again (a new time, a
        // new pace) judges it again, so the note never speaks of the time it was first asked at.
        // (Not in a comparison, which never noted it: its walk option says as much.)
        if run.share == nil, let ride = noted.modes.firstIndex(of: .transit), noted.lock(ofSegment: ride) == nil,
           noted.nodes.filter({ !$0.isInferred }).count == 2, run.asked.contains(origins[ride]),
           (noted.note(ofSegment: ride)?.mode.map { [.riddenWalkingNoSlower, .wholeWayWalkingNoSlower].contains($0.kind) } ?? true) {
            computed.plan.setModeNote(nil, ofSegment: ride)
            computed = try await notingWalkingNoSlowerEndToEnd(in: computed)
        }
        return computed
    }

    /// The legs of a plan with pins: each pin re-found first (`resolvePinned`), the segments
    /// before the first timed back from it (those before a stay "until" forward from the start),
    /// those after each pin forward from its arrival up to the next, and a pin the traveller
    /// can't catch proposed anew (`proposeCatchableDeparture`).
    func fillAroundPins(run: inout LegRun) async throws {
        let pinned = run.plan.pinnedSegmentIndices
        guard let first = pinned.first else { return }
        for index in pinned where run.plan.legs[index] == nil {
            if let pin = run.plan.pin(ofSegment: index) { try await resolvePinned(index, pin: pin, run: &run) }
        }
        // When the traveller leaves and gets off pinned segment `index`.
        func span(_ index: Int) -> (departure: Date, arrival: Date) {
            let leg = run.plan.legs[index], pin = run.plan.pin(ofSegment: index)
            let departure = leg?.departure ?? pin?.departure ?? clock.now()
            return (departure, leg?.arrival ?? departure.addingTimeInterval(leg?.expectedTravelTime ?? pin?.duration ?? 0))
        }
        // The start is a constraint too: a stay "until" before the first pin holds the
        // traveller there anyway, so the legs before it go forward from the start (leave
        // now, depart at); only the legs between it and the pin are timed back from the pin
        // (`segmentsTimedBackFromFirstPin`, the rule the edits read too).
        let start = run.plan.earliestDeparture(now: clock.now())
        let anchor = run.plan.segmentsTimedBackFromFirstPin.lowerBound
        try await fillBackward(before: first, downTo: anchor,
                               arrivingBy: run.plan.nodes[first].latestArrival(leavingAt: span(first).departure),
                               sourceChanged: run.asked.contains(first), run: &run)
        if let start, anchor > 0 {
            try await fillForward(from: 0, before: anchor, departingAt: run.plan.nodes[0].leaving(arrivedAt: start), run: &run)
        }
        // A ride before the pin that nothing gets in by its time (the first buses of the day,
        // a ride inserted before the pin) would leave the traveller nowhere, the pin neither
        // caught nor missed: the stretch is asked forward from when they can leave instead,
        // so the pin is seen missed and the next catchable ride proposed (issue 39).
        if let start, (anchor..<first).contains(where: { run.plan.legs[$0] == nil && run.plan.modes[$0] == .transit }) {
            try await fillForward(from: anchor, before: first, departingAt: run.plan.nodes[anchor].leaving(arrivedAt: start),
                                  run: &run)
        }
        // Timed back from the pin, a ride before it that leaves before the traveller can be
        // there (the pin is out of reach from the start: a place inserted before it) was shown
        // before the plan's start, the pin still "caught" (trial 48 F8: a bus at 07:38 in a
        // plan leaving at 07:57). The stretch is asked forward from when they can leave
        // instead (a ride that leaves too early is asked again): its rides are ones they catch,
        // and the pin is the one missed, proposed anew.
        if let start, let missed = run.plan.missedConnection(leavingAt: start), (anchor..<first).contains(missed) {
            try await fillForward(from: anchor, before: first, departingAt: run.plan.nodes[anchor].leaving(arrivedAt: start),
                                  run: &run)
        }
        // Between two pins, the legs are timed from the earlier pin's arrival; after the last, to the end.
        for (position, index) in pinned.enumerated() {
            let next = position + 1 < pinned.count ? pinned[position + 1] : nil
            try await fillForward(from: index + 1, before: next,
                                  departingAt: run.plan.nodes[index + 1].leaving(arrivedAt: span(index).arrival),
                                  sourceChanged: run.asked.contains(index), run: &run)
        }
        try await proposeCatchableDeparture(run: &run)
    }

    /// Mutable state of one `computeLegs` run.
    struct LegRun {
        var plan: RoutePlan
        var failures: [SegmentFailure] = []
        var queryCount = 0
        /// The segments asked in this run: the legs timed from them are asked again too.
        var asked: Set<Int> = []
        /// The segments timed from one asked in this run (`LegComputation.retimed`).
        var retimed: Set<Int> = []
        /// In a comparison: the street legs asked by every mode (nil: each leg asked in turn).
        let share: StreetLegShare?
        /// The pinned segments whose inferred stops `resolvePinned` moved to the pinned ride's own.
        var movedStopsForPins: [Int] = []
        /// Done again because such a pin was missed: the stops the edit chose stay (the leg
        /// walks from them to its own, `reachingItsOwnStops`).
        var keepsStopsChosenForPins = false
        /// The pinned segments `resolvePinned` did not find again (cancelled, skipping their stop,
        /// gone from the timetable): proposed from the pinned time, and again from when the
        /// traveller can be at their start once the legs before them are known.
        var pinsNotFound: Set<Int> = []

        /// Segment `index` found no ride, asked at a time the traveller never reaches (segment
        /// `gap` has no leg, so the time was carried over it): its failure says so instead of
        /// naming that time (issue 39 F13: "no service leaving after 12:40" on a segment nobody
        /// reaches at 12:40). The rides the engine named around it are real ones and stay (left
        /// by session 50: "when service ended and resumes" was dropped with the guess).
        mutating func sayingAskedAtAGuess(_ index: Int, after gap: Int) {
            guard plan.legs[index] == nil, let failure = failures.lastIndex(where: { $0.segment == index }),
                  case .noRoute(let message, _) = failures[failure].error else { return }
            let service = Planner.serviceAround(in: message).map { "; on this hop \($0)" } ?? ""
            failures[failure].error = .noRoute(Planner.askedAtAGuess + ": segment \(gap + 1) has no leg, "
                                               + "so when the traveller gets here is not known" + service)
        }
    }

    /// Queries segment `index` and stores the leg or the failure. With a share, a street
    /// segment next to a transit one brings along the other empty street segments around the
    /// same transit legs (access and egress walks), asked at once; each counts when its own
    /// segment is filled.
    /// - parameter atItsStops: a ride asked between stops chosen for it (`choosingTheTripsNearestStops`)
    ///   is asked from (to) those stops, not searched from (to) the traveller's places.
    func fill(_ index: Int, _ timing: LegTiming, atItsStops: Bool = false, run: inout LegRun) async throws {
        run.queryCount += 1
        run.asked.insert(index)
        run.failures.removeAll { $0.segment == index }
        var asked = query(run.plan, index, timing)
        if asked.mode == .transit, !atItsStops {
            let walks = run.asked
            asked.travellerEnds = run.plan.travellerEnds(ofSegment: index, timedBy: timing) { walks.contains($0) }
        }
        let answer: Result<RouteLeg, RoutingError>
        if let share = run.share, asked.mode != .transit {
            let plan = run.plan
            let companions = plan.streetSegments(aroundTransitNextTo: index).filter { plan.legs[$0] == nil }
            answer = try await share.legs(for: [asked] + companions.map { query(plan, $0, timing) }, by: self)[0]
        } else {
            answer = try await leg(for: asked)
        }
        switch answer {
        case .success(let leg): run.plan.legs[index] = leg
        case .failure(let error):
            run.plan.legs[index] = nil
            run.failures.append(SegmentFailure(segment: index, error: Self.sayingTheWalkToItsStop(error, segment: index, in: run.plan, askedAt: timing)))
        }
    }

    /// Forward from segment `start`, leaving at `date`. A kept transit leg (not pinned) is asked
    /// again from the time the traveller gets to it when a leg before it in this stretch was
    /// asked, or the pin it is timed from was (`sourceChanged`): the edit may have made the
    /// traveller earlier as well as later, and transit queries are cheap (street queries are
    /// what "recompute only what the edit touches" saves). It is also asked again when it
    /// leaves before the traveller gets to it.
    private func fillForward(from start: Int, before end: Int? = nil, departingAt date: Date, sourceChanged: Bool = false,
                             run: inout LegRun) async throws {
        var reached = [start: date]  // when the traveller is at each node
        var cursor = date
        var retime = sourceChanged
        var gap: Int?  // a segment before with no leg: the cursor is a guess from there on
        for index in start..<max(start, end ?? run.plan.segmentCount) {
            let newRide = run.plan.legs[index] == nil  // the edit emptied it (not only timed again here)
            if let kept = run.plan.legs[index], kept.mode == .transit, !run.plan.isPinned(segment: index),
               retime || (kept.departure.map { $0 < cursor.addingTimeInterval(-RoutePlan.connectionSlack) } ?? false) {
                run.plan.legs[index] = nil
            }
            if run.plan.legs[index] == nil {
                retime = true
                try await fill(index, .departAt(cursor), run: &run)
                if let gap { run.sayingAskedAtAGuess(index, after: gap) }
                if run.plan.modes[index] == .transit {
                    try await adoptStops(ofSegment: index, passedWalkFrom: reached[index - 1], forward: true, askedAt: cursor, run: &run)
                    try await choosingTheTripsNearestStops(ofSegment: index, passedWalkFrom: reached[index - 1], forward: true,
                                                           askedAt: cursor, newRide: newRide, run: &run)
                }
            }
            if let leg = run.plan.legs[index] {
                cursor = leg.mode == .transit
                    ? (leg.arrival ?? cursor.addingTimeInterval(leg.expectedTravelTime))
                    : cursor.addingTimeInterval(leg.expectedTravelTime)
                cursor = run.plan.nodes[index + 1].leaving(arrivedAt: cursor)  // a stay there delays the next leg
            } else if gap == nil {
                gap = index
            }
            if retime { run.retimed.insert(index) }
            reached[index + 1] = cursor
        }
    }

    /// Backward before segment `end`, arriving by `date`: the mirror of `fillForward`. A kept
    /// transit leg (not pinned) is asked again when a leg after it in this stretch was asked or
    /// the pin it is timed from was (`sourceChanged`), or when it arrives after the traveller
    /// must leave its end.
    private func fillBackward(before end: Int, downTo first: Int = 0, arrivingBy date: Date, sourceChanged: Bool = false,
                              run: inout LegRun) async throws {
        var reached = [end: date]  // when the traveller must be at each node
        var anchor = date
        var retime = sourceChanged
        var gap: Int?  // a segment after with no leg: the anchor is a guess from there on
        for index in stride(from: end - 1, through: first, by: -1) {
            let newRide = run.plan.legs[index] == nil  // the edit emptied it (not only timed again here)
            if let kept = run.plan.legs[index], kept.mode == .transit, !run.plan.isPinned(segment: index),
               retime || (kept.arrival.map { $0 > anchor.addingTimeInterval(RoutePlan.connectionSlack) } ?? false) {
                run.plan.legs[index] = nil
            }
            if run.plan.legs[index] == nil {
                retime = true
                try await fill(index, .arriveBy(anchor), run: &run)
                if let gap { run.sayingAskedAtAGuess(index, after: gap) }
                if run.plan.modes[index] == .transit {
                    try await adoptStops(ofSegment: index, passedWalkFrom: reached[index + 2], forward: false, askedAt: anchor, run: &run)
                    try await choosingTheTripsNearestStops(ofSegment: index, passedWalkFrom: reached[index + 2], forward: false,
                                                           askedAt: anchor, newRide: newRide, run: &run)
                }
            }
            if let leg = run.plan.legs[index] {
                anchor = run.plan.nodes[index].latestArrival(
                    leavingAt: leg.departure ?? anchor.addingTimeInterval(-leg.expectedTravelTime))
            } else if gap == nil {
                gap = index
            }
            if retime { run.retimed.insert(index) }
            reached[index] = anchor
        }
    }

    /// After transit segment `index` was computed, its inferred stops become the stops it really
    /// uses (`adoptingTransitStops`). The walk the run has already passed (the one before it going
    /// forward, after it going backward; it runs from / to `time`) is asked again to the new
    /// stop at once; the one ahead is left empty for the loop. When the new walk no longer fits
    /// the leg's times, the leg is asked again from the new stop. (A walk outside this run, i.e.
    /// the pinned segment, is never re-timed: `adoptingTransitStops` leaves its node alone.)
    /// A ride the new walk misses was one the engine's straight-line walk reached: the adoption
    /// is undone and the ride asked again between the stops it was asked between (`askedAt`
    /// there), later (earlier) by as much as the walk missed it, up to `retries` times, so the
    /// search never drifts to the stops around a ride nobody could catch (issue 39); only then is
    /// it asked from the new stop. Timed back, a new walk shorter than the way the engine went
    /// (the plan then arrived minutes early, and left as early) has the leg asked again to the
    /// new stop by when that walk must leave it, which finds a later ride.
    func adoptStops(ofSegment index: Int, passedWalkFrom time: Date?, forward: Bool, askedAt: Date,
                            retries: Int = 2, run: inout LegRun) async throws {
        let before = run.plan
        let (adopted, emptied) = run.plan.adoptingTransitStops(ofSegment: index)
        run.plan = adopted
        // A pinned walk beside a moved stop leaves when the user pinned it, whatever the ride.
        try await retimingPinnedStreets(emptied, run: &run)
        let passed = forward ? index - 1 : index + 1
        guard emptied.contains(passed), !run.plan.isPinned(segment: passed), let time, let leg = run.plan.legs[index] else { return }
        try await fill(passed, forward ? .departAt(time) : .arriveBy(time), run: &run)
        guard let walk = run.plan.legs[passed]?.expectedTravelTime else { return }
        // When the ride must leave (arrive) for the walk: a stay at the stop between them counts
        // (trial 56: timed back across a 30 min stay at the inferred Keskustori A, the tram was
        // asked again by when the walk left, arriving 29 min too late for the stay).
        let reached = forward ? run.plan.nodes[index].leaving(arrivedAt: time.addingTimeInterval(walk))
            : run.plan.nodes[index + 1].latestArrival(leavingAt: time.addingTimeInterval(-walk))
        var miss: TimeInterval = 0
        if forward, let departure = leg.departure {
            miss = reached.timeIntervalSince(departure)
        } else if !forward, let arrival = leg.arrival {
            miss = arrival.timeIntervalSince(reached)
        }
        if !forward, miss < -RoutePlan.connectionSlack, retries > 0 {
            // Timed back, the walk from the new stop is shorter than the engine's way from it to
            // the stop it was asked to: a later ride may now arrive in time, so the leg is asked
            // again to the new stop by when the walk must leave it. Its ride arrives there in
            // time, so the answer leaves no earlier. (Going forward the traveller only waits
            // longer at the stop: the plan leaves later, arriving as before.)
            let (kept, keptFailures) = (run.plan, run.failures)
            run.plan.legs[index] = nil
            try await fill(index, .arriveBy(reached), run: &run)
            guard run.plan.legs[index] != nil else {
                (run.plan, run.failures) = (kept, keptFailures)
                return
            }
            return try await adoptStops(ofSegment: index, passedWalkFrom: time, forward: forward, askedAt: reached,
                                        retries: retries - 1, run: &run)
        }
        guard miss > RoutePlan.connectionSlack else { return }
        if retries > 0 {
            var undone = before
            undone.legs[index] = nil
            run.plan = undone
            let shifted = askedAt.addingTimeInterval(forward ? miss : -miss)
            try await fill(index, forward ? .departAt(shifted) : .arriveBy(shifted), run: &run)
            return try await adoptStops(ofSegment: index, passedWalkFrom: time, forward: forward, askedAt: shifted,
                                        retries: retries - 1, run: &run)
        }
        try await fill(index, forward ? .departAt(reached) : .arriveBy(reached), run: &run)
    }

    /// Re-finds the pinned departure. A match replaces the leg; otherwise the user's chosen leg
    /// stays and the closest answer is proposed as a `PendingSegmentUpdate` (unless it differs
    /// by no more than `pendingUpdateThreshold`).
    ///
    /// The stops the planner inferred beside it are the pinned ride's own (`takingThePinnedRidesStops`):
    /// not re-found from a stop an edit chose again, the ride is asked again from the stop it
    /// boards at; re-found, its node is the stop it boards at.
    private func resolvePinned(_ index: Int, pin: PinnedDeparture, run: inout LegRun) async throws {
        var (found, matched, lastError, queries) = try await matchingLeg(for: run.plan, segment: index, pin: pin)
        run.queryCount += queries
        run.asked.insert(index)
        if !matched, !run.keepsStopsChosenForPins, let own = pin.leg {
            let moved = run.plan.takingThePinnedRidesStops(of: own, ofSegment: index, sameStopMetres: configuration.endIsStopMetres)
            if !moved.emptied.isEmpty {
                run.plan = moved.plan
                run.movedStopsForPins.append(index)
                (found, matched, lastError, queries) = try await matchingLeg(for: run.plan, segment: index, pin: pin)
                run.queryCount += queries
                try await retimingPinnedStreets(moved.emptied, run: &run)
            }
        }
        if matched, let found {
            let moved = run.plan.takingThePinnedRidesStops(of: found, ofSegment: index, sameStopMetres: configuration.endIsStopMetres)
            run.plan = moved.plan
            run.plan.legs[index] = moved.leg
            try await retimingPinnedStreets(moved.emptied, run: &run)
            if let departure = moved.leg.departure, departure < pin.departure {
                // Found boarding its trip at a stop before the pinned one: the pin leaves from there now.
                run.plan.retimingPin(ofSegment: index, to: moved.leg, departingAt: departure)
            }
            run.plan.pending[run.plan.segmentKey(index)] = nil  // an earlier proposal for this pin is stale once it is re-found
            return
        }
        let key = run.plan.segmentKey(index)
        // The user's choice: the stored leg, or (a pin restored without it) its time and duration.
        var selected = pin.leg ?? RouteLeg(mode: run.plan.modes[index], expectedTravelTime: pin.duration,
                                           departure: pin.departure,
                                           arrival: pin.departure.addingTimeInterval(pin.duration))
        if pin.leg != nil, !pin.tripIDs.isEmpty {
            // A realtime feed that still knows the pinned trips: late or early, it is the same
            // trip, so the pin holds with its live times (and the legs after it move), where it
            // starts at the segment's start; a node an edit chose again elsewhere is reached by
            // a walk below, and missed when it is too long. Cancelled, the user's leg stays,
            // marked, next to the proposal below.
            let live = await routing.liveLeg(selected, for: query(run.plan, index, .departAt(pin.departure)))
            if live.hasLiveTimes && !live.hasCancelledRide
                && live.starts(at: run.plan.nodes[index].place.coordinate, within: configuration.endIsStopMetres) {
                run.plan.legs[index] = live
                run.plan.pending[key] = nil
                return
            }
            selected = live
            // Not answered again, though its trips still call where and when it rides them: the
            // pin holds as chosen (a ride it misses is proposed anew once the legs are known).
            if await pinnedRideStillRuns(selected, from: run.plan.nodes[index].place, access: run.plan.access) {
                run.plan.legs[index] = selected
                run.plan.pending[key] = nil
                return
            }
        }
        // An edit may have chosen the ride's stop again: the leg walks there from the node.
        let reaching = try await reachingItsOwnStops(selected, ofSegment: index, in: run.plan)
        run.queryCount += reaching.queries
        selected = reaching.leg
        run.plan.legs[index] = selected
        run.pinsNotFound.insert(index)
        if found == nil, let lastError { run.failures.append(SegmentFailure(segment: index, error: lastError)) }
        if let latest = found, differsNoticeably(latest, from: selected), !wasDismissed(latest, segment: key, in: run.plan) {
            run.plan.pending[key] = PendingSegmentUpdate(segment: key, selected: selected, proposal: .ride(latest))
        } else if found == nil, selected.hasCancelledRide, lastError.map(Self.meansNothingToCatch) == true,
                  !wasDismissed(selected, segment: key, in: run.plan) {
            // Cancelled, and no later ride of any line leaves: say so (a missed pin may still
            // replace this with its own answer below).
            run.plan.pending[key] = PendingSegmentUpdate(segment: key, selected: selected,
                                                         proposal: .nothingCatchable(NoCatchableRide(arrivingBy: false, time: pin.departure)))
        }
    }

    /// Pinned street segments in `segments` whose stop at a ride's end moved (`takingThePinnedRidesStops`,
    /// `adoptingTransitStops`): each keeps its far end and its pinned departure and is asked
    /// again from (to) the new stop; its pin takes the new leg. A pinned walk kept to a stop no
    /// ride uses sent the traveller there for nothing (trial 49 finding 4a).
    func retimingPinnedStreets(_ segments: [Int], run: inout LegRun) async throws {
        for index in segments where run.plan.modes[index] != .transit {
            guard let pin = run.plan.pin(ofSegment: index) else { continue }
            try await fill(index, .departAt(pin.departure), run: &run)
            if let leg = run.plan.legs[index] { run.plan.retimingPin(ofSegment: index, to: leg, departingAt: pin.departure) }
        }
    }

    /// Whether a ride query's failure means no ride can be caught (rather than a broken engine).
    /// How a failure asked at a time nobody reaches begins (`sayingAskedAtAGuess`).
    static let askedAtAGuess = "no ride found at a guessed time"

    /// The rides a no-service answer names ("the last ride is tram 3 at 11:34 from Keskustori B,
    /// the next is …"), without the time it was asked at; nil when it names none.
    static func serviceAround(in message: String) -> String? {
        guard let start = message.range(of: "between these points: ") else { return nil }
        let rides = message[start.upperBound...]
        // A note on the walk to (from) the stop is about the time asked, which was a guess.
        return String(rides.range(of: " (searched ").map { rides[..<$0.lowerBound] } ?? rides)
    }

    /// The transit answer's words on why no ride was found, for a walked hop's note: a failure
    /// asked at a real time, not one asked at a guess (which says nothing about service).
    static func noRideWords(_ failures: [SegmentFailure], in stretch: Range<Int>) -> String? {
        failures.first { stretch.contains($0.segment) && meansNothingToCatch($0.error) }
            .map(\.error.message).flatMap { $0.hasPrefix(askedAtAGuess) ? nil : $0 }
    }

    static func meansNothingToCatch(_ error: RoutingError) -> Bool {
        switch error {
        case .noRoute, .outsideServicePeriod: true
        default: false
        }
    }

    /// Whether the user already dismissed this proposal for the segment (the same departure,
    /// trips and duration, within `pendingUpdateThreshold`).
    func wasDismissed(_ latest: RouteLeg, segment key: SegmentKey, in plan: RoutePlan) -> Bool {
        guard let dismissed = plan.dismissed[key] else { return false }
        return !differsNoticeably(latest, from: dismissed)
    }

    /// Whether `latest` is worth proposing instead of the user's `selected` leg: another duration,
    /// another departure, or another trip. A cancelled bus replaced by the next one of the same
    /// length must not go unnoticed; differences within `pendingUpdateThreshold` don't count.
    func differsNoticeably(_ latest: RouteLeg, from selected: RouteLeg) -> Bool {
        let threshold = configuration.pendingUpdateThreshold
        if abs(latest.expectedTravelTime - selected.expectedTravelTime) > threshold { return true }
        if let new = latest.departure, let old = selected.departure, abs(new.timeIntervalSince(old)) > threshold {
            return true
        }
        return !latest.tripIDs.isEmpty && !selected.tripIDs.isEmpty && latest.tripIDs != selected.tripIDs
    }

    /// Tries the plain query at the pinned departure, then shifts it by `pinShift` up to
    /// `pinShiftAttempts` times; returns the first match (trip IDs when both sides know them,
    /// else the duration fingerprint), or else the closest answer. With `arrivingBy`, asks
    /// "arrive by" that time instead, shifting earlier.
    func matchingLeg(for plan: RoutePlan, segment index: Int, pin: PinnedDeparture, arrivingBy: Date? = nil) async throws
        -> (leg: RouteLeg?, matched: Bool, lastError: RoutingError?, queries: Int) {
        var closest: RouteLeg?, best: RouteLeg?
        var lastError: RoutingError?
        var queries = 0
        for attempt in 0...max(0, configuration.pinShiftAttempts) {
            let shift = Double(attempt) * configuration.pinShift
            let timing: LegTiming = arrivingBy.map { .arriveBy($0.addingTimeInterval(-shift)) }
                ?? .departAt(pin.departure.addingTimeInterval(shift))
            queries += 1
            switch try await leg(for: query(plan, index, timing)) {
            case .failure(let error):
                lastError = error
            case .success(let candidate):
                if matches(candidate, pin) { return (candidate, true, nil, queries) }
                let gap = abs(candidate.expectedTravelTime - pin.duration)
                if closest.map({ gap < abs($0.expectedTravelTime - pin.duration) }) ?? true { closest = candidate }
                if Self.isBetterProposal(candidate, than: best, arrivingBy: arrivingBy != nil) { best = candidate }
            }
        }
        // The pinned trip may pass the stop the segment now starts at before the pinned time (an
        // edit chose a stop upstream on its line): asked from when it calls there, it is found.
        if let earlier = try await pinnedTripAtAnEarlierStop(for: plan, segment: index, pin: pin, arrivingBy: arrivingBy) {
            queries += 1
            if case .success(let candidate) = earlier, matches(candidate, pin) { return (candidate, true, nil, queries) }
        }
        // A ride that is gone is replaced by the best one the traveller can still catch (every
        // answer leaves after the pinned time, or arrives by the time asked); a walk or drive,
        // which has no times, by the answer closest to the user's duration.
        return (best ?? closest, false, lastError, queries)
    }

    /// The answer for segment `index` asked from when the pinned trip calls at the stop the
    /// segment starts at, when that call is before the pinned boarding (the stop is upstream on
    /// the trip); nil (nothing asked) otherwise, or for a pin without trips or asked "arrive by".
    private func pinnedTripAtAnEarlierStop(for plan: RoutePlan, segment index: Int, pin: PinnedDeparture,
                                           arrivingBy: Date?) async throws -> Result<RouteLeg, RoutingError>? {
        guard arrivingBy == nil, plan.modes[index] == .transit, !pin.tripIDs.isEmpty, let ride = pin.leg?.rides.first
        else { return nil }
        let start = plan.nodes[index].place.coordinate
        let calls = await routing.calls(ofTripOf: ride)
        guard let call = calls.first(where: { $0.canBoard && $0.departure < ride.boarding.time
            && $0.coordinate.distance(to: start) <= configuration.endIsStopMetres }) else { return nil }
        return try await leg(for: query(plan, index, .departAt(call.departure)))
    }

    /// The proposal rule (docs/planner.md "The proposal rule"): among timed answers, the one
    /// arriving first (then the one leaving last); asked "arrive by", the one leaving last (then
    /// the one arriving first). Answers without times (walks, drives) are never "better".
    static func isBetterProposal(_ candidate: RouteLeg, than best: RouteLeg?, arrivingBy: Bool) -> Bool {
        guard candidate.mode == .transit, let departure = candidate.departure, let arrival = candidate.arrival,
              !candidate.hasCancelledRide else { return false }
        guard let best, let bestDeparture = best.departure, let bestArrival = best.arrival else { return true }
        return arrivingBy ? (departure, bestArrival) > (bestDeparture, arrival) : (arrival, bestDeparture) < (bestArrival, departure)
    }

    func matches(_ candidate: RouteLeg, _ pin: PinnedDeparture) -> Bool {
        if !pin.tripIDs.isEmpty, !candidate.tripIDs.isEmpty { return candidate.tripIDs == pin.tripIDs }
        return configuration.pinTolerance.matches(expected: pin.duration, actual: candidate.expectedTravelTime)
    }

    // MARK: - Queries

    func query(_ plan: RoutePlan, _ index: Int, _ timing: LegTiming) -> LegQuery {
        let transit = plan.modes[index] == .transit
        return LegQuery(from: plan.nodes[index].place, to: plan.nodes[index + 1].place, mode: plan.modes[index],
                        timing: timing, pace: plan.pace,
                        avoiding: transit ? plan.lock(ofSegment: index)?.avoidedStops ?? [] : [],
                        access: plan.access, travellerEnds: transit ? plan.travellerEnds(ofSegment: index) : TravellerEnds())
    }

    /// One leg query. Routing failures come back as values so the caller can go on;
    /// cancellation is checked first and always rethrown.
    func leg(for query: LegQuery) async throws -> Result<RouteLeg, RoutingError> {
        try Task.checkCancellation()
        do {
            return .success(try await routing.leg(for: query))
        } catch let error as RoutingError {
            return .failure(error)
        } catch let error as CancellationError {
            throw error
        } catch {
            try Task.checkCancellation()
            return .failure(.engineFailure(String(describing: error)))
        }
    }

    /// Stop lookup with the same cancellation rule.
    func stops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
        try Task.checkCancellation()
        return try await routing.nearbyStops(around: coordinate, radius: radius, limit: limit).filter(\.coordinate.isValid)
    }
}
