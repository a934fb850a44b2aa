import Foundation

/// A pin that gives way is proposed from where the traveller is, not from the stop inferred for
/// the ride they miss (session 60, F3): after `plan stay` at Keskustori made bus 9 at 08:41 from
/// the inferred Keskustori E missed, the proposal was asked from Keskustori E and was bus 9 at
/// 09:10 (arriving 09:34), while the traveller, leaving Keskustori at 08:57:47, catches bus 33 at
/// 09:00 from Keskustori L and bus 6 after it (09:25:44). The stop was chosen for the ride
/// missed; the next ride may board at another stop around the traveller's place.
extension Planner {
    /// The query for transit segment `index` of `plan` timed by `timing` (leaving its start, or
    /// arriving by a time): where the traveller walks to its start, an inferred stop, from a place
    /// of theirs over a walk the plan knows, the ride is searched from that place
    /// (`TravellerEnds.originWalk`): every stop within reach of the place is timed by the walk from
    /// it. The leg found still starts at the inferred stop (its walk to another stop is what it
    /// costs beyond the known walk), and the stop follows the ride once it is taken
    /// (`takingThePinnedRidesStops`). Arriving by a time, the latest departure is then the latest
    /// from the place: a cancelled bus 6 from Koskipuisto C, asked from that stop, was proposed
    /// bus 28 at 08:43:45 from Rautatieasema F, an 8-minute walk from Keskustori, where bus 90A
    /// at 08:41 leaves from beside it and arrives 3 min sooner (trial 61 F6).
    func queryFromTheTravellersPlace(_ plan: RoutePlan, _ index: Int, _ timing: LegTiming) -> LegQuery {
        var asked = queryToTheTravellersPlace(plan, index, timing)
        if asked.travellerEnds.origin != nil, index > 0, let walk = plan.legs[index - 1], walk.mode == .walk {
            asked.travellerEnds.originWalk = walk.expectedTravelTime
        }
        return asked
    }

    /// The mirror at the ride's end (session 60 F5): where the traveller walks from its end, an
    /// inferred stop, to a place of theirs over a walk the plan knows, the ride is searched to
    /// that place (`TravellerEnds.destinationWalk`), not to the stop inferred for the ride given
    /// way: a late pin of bus 8 to Pyynikintori D in a plan arriving by 09:33 was proposed bus 8
    /// at 09:21, where bus 52A at 09:25 gets to Pyynikintori F, 51 m from the place, by 09:31.
    func queryToTheTravellersPlace(_ plan: RoutePlan, _ index: Int, _ timing: LegTiming) -> LegQuery {
        var asked = query(plan, index, timing)
        if asked.travellerEnds.destination != nil, plan.legs.indices.contains(index + 1), let walk = plan.legs[index + 1],
           walk.mode == .walk {
            asked.travellerEnds.destinationWalk = walk.expectedTravelTime
        }
        return asked
    }
}
