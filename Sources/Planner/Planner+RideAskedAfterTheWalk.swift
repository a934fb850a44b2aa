import Foundation

/// A ride from an inferred stop is asked from when the walk there gets the traveller to it, not
/// from the time the user asked: `compare Keskustori Hervanta --at 12:00` said "no transit
/// service leaving after 12:01", a time nobody asked (trial 50 finding 6). The answer says
/// where that minute comes from. Arrive-by likewise: a ride to an inferred stop is asked to
/// arrive in time for the walk from it (trial 53: "no transit service arriving by 06:00" for
/// a plan arriving by 06:02, the 2 min walk from Keskustori D unsaid).
extension Planner {
    /// `error` for transit segment `segment` of `plan`, which found no ride: when the segment
    /// starts at an inferred stop the walk before it reaches from one of the user's places, the
    /// words name that walk (the time searched leaving, the error's `searched`, is when it ends; its
    /// minutes are those between the shown times, so the start plus the walk reads as the time named).
    /// Arrive-by: when it ends at an inferred stop the walk after it leaves for one of the user's
    /// places, the words name that walk (the time searched arriving is when it starts).
    static func sayingTheWalkToItsStop(_ error: RoutingError, segment: Int, in plan: RoutePlan, askedAt asked: LegTiming) -> RoutingError {
        // Only words that name a time ("after 12:01") need the walk that moved it: the engine
        // gives that time with them.
        guard case .noRoute(let message, let searched?) = error, plan.modes[segment] == .transit else { return error }
        switch asked {
        case .departAt:
            guard segment > 0, plan.nodes[segment].isInferred, !plan.nodes[segment - 1].isInferred,
                  let walk = plan.legs[segment - 1], walk.mode == .walk else { return error }
            let walked = ShownTime.text(from: searched.addingTimeInterval(-walk.expectedTravelTime), to: searched)
            return .noRoute(message + " (searched from \(plan.nodes[segment].place.name) once the traveller is there, "
                            + "after the \(walked) walk from \(plan.nodes[segment - 1].place.name))", searched: searched)
        case .arriveBy:
            guard segment + 2 < plan.nodes.count, plan.nodes[segment + 1].isInferred, !plan.nodes[segment + 2].isInferred,
                  let walk = plan.legs[segment + 1], walk.mode == .walk else { return error }
            let walked = ShownTime.text(from: searched, to: searched.addingTimeInterval(walk.expectedTravelTime))
            return .noRoute(message + " (searched arriving at \(plan.nodes[segment + 1].place.name) in time for the \(walked) "
                            + "walk to \(plan.nodes[segment + 2].place.name))", searched: searched)
        }
    }
}
