import Foundation

/// A walk the planner chose by the walk rule (`walkOrRide`: "walked: no transit route found",
/// "walked: walking (14 min) is no slower than transit (1 h 40 min)") was chosen for its time:
/// at 23:55 the next bus is at 05:54, at 08:10 bus 6 runs every few minutes. It is the
/// planner's, not the user's, so when an edit moves it in time (unpin, pin, time, stay, insert,
/// remove, refine) it is judged again there (trial 48: `plan unpin` retimed a day to
/// 03:29–09:18 and it kept 1 h 32 min walks where bus 6 runs). A walk the user chose (`plan
/// mode … walk`, an insert `--mode walk`, a pinned or chosen walk) stays a walk.
extension Planner {
    /// `computed` with each of the planner's walks (`RoutePlan.isPlannersWalk`) that its
    /// computation retimed (`LegComputation.retimed`) judged again from when the traveller is at
    /// its start (a walk timed back: when it leaves): ridden when a ride now exists and walking is slower (the plan then computed
    /// again, and the walks it retimes judged in turn), else kept with a note at its new time.
    /// The walk reached first is judged first (last first in an arrive-by plan: a ride moves the
    /// walks before it). One ride query a judged walk (its walk leg is known).
    /// - throws: only `CancellationError`.
    public func judgingPlannersWalksAgain(in computed: LegComputation, currentLocation: Coordinate? = nil) async throws
        -> LegComputation {
        let backward: Bool = if case .arriveBy = computed.plan.timePreference { true } else { false }
        return try await judgingRetimedSegments(in: computed, currentLocation: currentLocation, lastFirst: backward, isDue: { plan, index in
            (plan.isPlannersWalk(segment: index) || plan.isWayToPinnedRide(segment: index)) && plan.legs[index] != nil
        }, judge: { plan, index, times in
            guard let walking = plan.legs[index]?.expectedTravelTime else { return SegmentVerdict(plan: plan) }
            let start = times.leaving(index, in: plan) ?? plan.earliestDeparture(now: clock.now()) ?? clock.now()
            let wayToPin = plan.isWayToPinnedRide(segment: index)
            var ride = try await doorToDoorRide(ofSegment: index, in: plan, leavingAt: start)
            // The way to (from) a pinned ride is walked so that it never rides the pinned vehicle
            // itself; a ride on another vehicle, when walking is slower, is taken (issue 39: a
            // 1 h 13 min walk from Lielahti A to the pinned bus 6 where bus 9 takes 17 min).
            if wayToPin, ride.leg.map(plan.ridesAPinnedVehicle) ?? false { ride = RideDoorToDoor() }
            let choice = Self.walkOrRide(walking: walking, riding: ride.riding, inherited: .walk, leaving: start,
                                         distances: Self.walkedDistances(of: ride, against: plan.legs[index]))
            var noted = plan
            let reason = plan.groundedNote(choice.reason.map { $0.keeping(plan.note(ofSegment: index)?.mode) }, ofSegment: index)
            guard choice.mode == .transit else {
                if !wayToPin { noted.setModeNote(reason, ofSegment: index) }  // still the way to the pinned ride
                return SegmentVerdict(plan: noted, queries: 1)
            }
            // The ride moves the legs after it (before it, timed back): they are asked again, and
            // the planner's walks among them judged at their new times.
            // Its stops are inferred when computed, as an inserted ride's, or are the ones it was
            // judged through: walks to them and the ride between, as a new plan has, saying nothing
            // (the ride's own minutes are not the stretch's door to door the walk was judged against).
            let ridden = noted.riding(index, as: ride)
            noted = ridden.plan
            if ride.stops.isEmpty { noted.setModeNote(reason, ofSegment: ridden.ride) }  // of the ride computed, not the walk it replaces
            // Asked again as the plan times it (by the pinned departure), the ride may board the
            // pinned vehicle after all: the way is walked then, as before it was judged.
            return SegmentVerdict(plan: noted, changed: true, queries: 1, afterComputing: !wayToPin ? nil : { current in
                if current.plan.ridesAPinnedVehicleOffItsPin { current.plan = plan }
            })
        })
    }

    /// The note of a walk the user pinned at `departure` that the planner had chosen: its reason
    /// judged at the pinned time, not the time it was chosen at ("walking (14 min) is no slower
    /// than transit (1 h 40 min)" judged at 04:30 said nothing true of a walk pinned at 08:59).
    /// Where the ride is faster there, the pin is the user's choice and the planner's reason goes.
    /// One ride query; none for any other segment.
    /// - throws: only `CancellationError`.
    func notingPinnedPlannersWalk(ofSegment index: Int, in plan: RoutePlan, at departure: Date) async throws -> RoutePlan {
        guard plan.modes[index] == .walk, plan.note(ofSegment: index)?.mode?.kind.isWalkRule == true,
              let walking = plan.legs[index]?.expectedTravelTime else { return plan }
        let ride = try await doorToDoorRide(ofSegment: index, in: plan, leavingAt: departure)
        let choice = Self.walkOrRide(walking: walking, riding: ride.riding, inherited: .walk, leaving: departure,
                                     distances: Self.walkedDistances(of: ride, against: plan.legs[index]))
        var noted = plan
        noted.setModeNote(choice.mode == .walk ? choice.reason.map { $0.keeping(plan.note(ofSegment: index)?.mode) } : nil,
                          ofSegment: index)
        return noted
    }

    /// The ride from segment `index`'s start to its end leaving at `start`, door to door (its
    /// wait included), and its leg (`rideDoorToDoor`); nil figures when none is found.
    private func doorToDoorRide(ofSegment index: Int, in plan: RoutePlan, leavingAt start: Date) async throws -> RideDoorToDoor {
        try await rideDoorToDoor(from: plan.nodes[index].place, to: plan.nodes[index + 1].place, leavingAt: start,
                                 pace: plan.pace, access: plan.access)
    }
}

extension RoutePlan {
    /// Whether segment `index` is a walk the planner chose by the walk rule for its time (its
    /// note's kind is the walk rule's, `ModeNote.Kind.isWalkRule`) and the user never decided (no lock, no pin).
    public func isPlannersWalk(segment index: Int) -> Bool {
        modes.indices.contains(index) && modes[index] == .walk && !isLocked(segment: index) && !isPinned(segment: index)
            && note(ofSegment: index)?.mode?.kind.isWalkRule == true
    }

    /// Whether segment `index` is the walk to (from) a pinned ride that an edit chose so that it
    /// does not take the pinned vehicle (`walkingTheWayToPinnedRides`), the user never decided.
    func isWayToPinnedRide(segment index: Int) -> Bool {
        modes.indices.contains(index) && modes[index] == .walk && !isLocked(segment: index) && !isPinned(segment: index)
            && [.wayToPinnedRide, .wayFromPinnedRide].contains(note(ofSegment: index)?.mode?.kind)
    }

    /// Whether a segment that is not pinned rides a vehicle trip one of the plan's pins boards
    /// (one trip through two segments).
    public var ridesAPinnedVehicleOffItsPin: Bool {
        legs.indices.contains { !isPinned(segment: $0) && legs[$0].map(ridesAPinnedVehicle) == true }
    }

    /// Whether `leg` rides a vehicle trip one of the plan's pins boards.
    func ridesAPinnedVehicle(_ leg: RouteLeg) -> Bool {
        let pinned = Set(pins.values.flatMap(\.tripIDs))
        return leg.tripIDs.contains(where: pinned.contains)
    }
}
