import Foundation

/// A ride from an inferred stop is asked from when the walk there gets the traveller to it, not
/// from the time the user asked: `compare Keskustori Hervanta --at 12:00` said "no transit
/// service leaving after 12:01", a time nobody asked (trial 50 finding 6). The answer says
/// where that minute comes from.
extension Planner {
    /// `error` for transit segment `segment` of `plan`, which found no ride: when the segment
    /// starts at an inferred stop the walk before it reaches from one of the user's places, the
    /// words name that walk (the time searched leaving, the error's `searched`, is when it ends; its
    /// minutes are those between the shown times, so the start plus the walk reads as the time named).
    static func sayingTheWalkToItsStop(_ error: RoutingError, segment: Int, in plan: RoutePlan, askedAt asked: LegTiming) -> RoutingError {
        // Only words that name a time ("after 12:01") need the walk that moved it: the engine
        // gives that time with them.
        guard case .noRoute(let message, let searched?) = error, case .departAt = asked, plan.modes[segment] == .transit, segment > 0,
              plan.nodes[segment].isInferred, !plan.nodes[segment - 1].isInferred,
              let walk = plan.legs[segment - 1], walk.mode == .walk else { return error }
        let walked = ShownTime.text(from: searched.addingTimeInterval(-walk.expectedTravelTime), to: searched)
        return .noRoute(message + " (searched from \(plan.nodes[segment].place.name) once the traveller is there, "
                        + "after the \(walked) walk from \(plan.nodes[segment - 1].place.name))", searched: searched)
    }
}
