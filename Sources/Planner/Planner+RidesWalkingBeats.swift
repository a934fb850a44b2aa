import Foundation

/// A segment in transit mode rides the best transit journey, and a journey walking beats is
/// no best journey: the walk rule (`walkOrRide`) judges every ride an edit computes, the ones
/// the user inserted by transit too (trial 49: `plan insert … Kauppiaankatu --mode transit`
/// walked 775 m to Niemenmaa for one minute of bus 8 to Solja, 300 m from Kauppiaankatu).
/// A ride the user locked (`plan mode … transit`, a chosen alternative) or pinned stays theirs
/// and says when walking is no slower (`notingWalkingNoSlower`), as does the one ride of a plan
/// of two places by transit (`notingWalkingNoSlowerEndToEnd`).
extension Planner {
    /// `computed` with each transit segment its computation asked or retimed
    /// (`LegComputation.retimed`) that is not the user's (no lock, no pin) walked from its start
    /// to its end when walking takes no longer than the ride door to door (from when the
    /// traveller is at its start), or when the ride walks farther to and from its stops than
    /// walking the hop; it then says why (`SegmentNote.mode`, walked no slower) and the plan is
    /// computed again; a ride that stays and says why it rides says so of this judgement (a stop no ride uses any more goes: `leavingOutStopsNoRideUses`).
    /// A walk query only for a ride that could lose: the engine marked it `walkingIsNoSlower`,
    /// or the straight line walked at the fastest pace is no slower than it, or its walks are
    /// longer than the straight line. A segment is judged once a call.
    /// - throws: only `CancellationError`.
    public func walkingRidesWalkingBeats(in computed: LegComputation, currentLocation: Coordinate? = nil) async throws
        -> LegComputation {
        guard computed.plan.nodes.filter({ !$0.isInferred }).count > 2 else { return computed }
        return try await judgingRetimedSegments(in: computed, currentLocation: currentLocation, isDue: { plan, index in
            plan.modes[index] == .transit && !plan.isLocked(segment: index) && !plan.isPinned(segment: index)
        }, judge: { plan, index, times in
            let kept = SegmentVerdict(plan: plan)
            guard let ride = plan.legs[index], !ride.rides.isEmpty else { return kept }
            // Over its span (`JudgedTimes.span`): a ride timed back to the 08:02 bus is no 8-hour
            // ride from a plan's 23:55.
            let span = times.span(of: index..<(index + 1), in: plan)
            let start = span.leaving ?? ride.departure ?? clock.now()
            let riding = span.arriving.map { $0.timeIntervalSince(start) } ?? ride.expectedTravelTime
            let from = plan.nodes[index].place, to = plan.nodes[index + 1].place
            let straight = from.coordinate.distance(to: to.coordinate)
            let rideWalks = ride.walks.reduce(0) { $0 + $1.distance }
            let straightWalk = straight / Self.fastestStreetWalkMetresPerSecond * plan.pace.durationMultiplier
            // A ride noted faster with no walk judged (its note was words an older daemon stored) is
            // asked too, as is one whose note was judged over places the plan no longer goes
            // between (a hop to a stop since chosen again): its figures are of no ground shown.
            let unjudged = plan.note(ofSegment: index)?.mode.map { note in
                note.kind == .riddenFaster && (note.walking == nil || plan.groundNodes(of: note, ofSegment: index) == nil)
            } ?? false
            guard ride.walkingIsNoSlower || straightWalk <= riding || rideWalks > straight || unjudged else { return kept }
            let query = LegQuery(from: from, to: to, mode: .walk, timing: .departAt(start), pace: plan.pace, access: plan.access)
            var asked = kept
            asked.queries = 1
            guard let walk = try await leg(for: query).successValue else { return asked }
            let choice = Self.walkOrRide(walking: walk.expectedTravelTime, riding: riding, inherited: .transit, leaving: start,
                                         distances: Self.walkedDistances(of: ride, against: walk))
            guard choice.mode == .walk else {
                // A ride that says why it rides is judged again here: its note then speaks of this judgement.
                if plan.note(ofSegment: index)?.mode?.kind == .riddenFaster, let reason = choice.reason {
                    asked.plan.setModeNote(reason.keeping(plan.note(ofSegment: index)?.mode), ofSegment: index)
                }
                return asked
            }
            let walking = plan.walkingRide(ofSegment: index, saying: choice.reason)
            // A walk joined with the walks beside it (their stop left out) is judged as the way
            // it now replaces: from the joined walk's start to its end, door to door.
            let joined = walking.joined.flatMap { joined -> (walk: Int, riding: TimeInterval, leaving: Date)? in
                let joinedSpan = times.span(of: joined.from..<joined.to, in: plan)
                guard let from = joined.from == index ? start : joinedSpan.leaving, let end = joinedSpan.arriving else { return nil }
                return (joined.walk, end.timeIntervalSince(from), from)
            }
            return SegmentVerdict(plan: walking.plan, changed: true, queries: 1, afterComputing: { current in
                guard let joined, current.plan.modes.indices.contains(joined.walk), current.plan.modes[joined.walk] == .walk,
                      let walking = current.plan.legs[joined.walk]?.expectedTravelTime,
                      current.plan.note(ofSegment: joined.walk)?.mode?.kind != .walkedRideWalksFarther else { return }
                current.plan.setModeNote(Self.walkOrRide(walking: walking, riding: max(joined.riding, walking), inherited: .walk,
                                                         leaving: joined.leaving).reason, ofSegment: joined.walk)
            })
        })
    }
}

extension RoutePlan {
    /// The plan with segment `index` walked, saying `reason`; a stop the planner inferred that
    /// no ride uses then goes (`leavingOutStopsNoRideUses`), the walk it joins saying the reason.
    /// `joined`: that walk's segment in the plan returned, and the nodes of this plan it runs
    /// between (`from`, `to`); nil when no stop went.
    func walkingRide(ofSegment index: Int, saying reason: ModeNote?) -> (plan: RoutePlan, joined: (walk: Int, from: Int, to: Int)?) {
        let start = nodes[index].place.id, end = nodes[index + 1].place.id
        let reason = groundedNote(reason, ofSegment: index)  // judged from this ride's start to its end, whatever it joins
        var plan = self
        plan.setMode(.walk, at: index)
        plan.legs[index] = nil
        plan.setModeNote(reason, ofSegment: index)
        let joined = plan.leavingOutStopsNoRideUses()
        guard joined.segmentCount != plan.segmentCount else { return (joined, nil) }
        var noted = joined
        guard let walk = [index - 1, index].first(where: { segment in
            joined.modes.indices.contains(segment) && joined.modes[segment] == .walk
                && (joined.nodes[segment].place.id == start || joined.nodes[segment + 1].place.id == end)
        }) else { return (joined, nil) }
        noted.setModeNote(reason, ofSegment: walk)
        let from = joined.nodes[walk].place.id == start ? index : index - 1
        let to = joined.nodes[walk + 1].place.id == end ? index + 1 : index + 2
        guard nodes.indices.contains(from), nodes.indices.contains(to), nodes[from].place.id == joined.nodes[walk].place.id,
              nodes[to].place.id == joined.nodes[walk + 1].place.id else { return (noted, nil) }
        return (noted, (walk, from, to))
    }
}
