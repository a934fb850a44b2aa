import Foundation

/// A stretch an edit retimed is walked where a new day plan of its places at its new time walks
/// it (issue 39, session 60 F4): `plan stay` of 12 min at a via moved the stretch after it to
/// 09:00, and it walked 10 min to Piispantalo for bus 10, at Hämeenkatu 9 at 09:27, where walking
/// from the via arrives 09:22. The walk rule of rides (`walkingRidesWalkingBeats`) judges each
/// ride from its stop (Piispantalo → Koskipuisto D, where the bus is faster), never the stretch
/// from the via, as `plan new` of a day by transit judges it (`walkingHopsNoSlower`).
extension Planner {
    /// `computed` with each stretch that `planningTouchedStretchesAfresh` would plan again
    /// (retimed by the computation, ridden by the planner, nothing of the user's in it) judged by
    /// `walkingHopsNoSlower`: walked from end to end, saying why, when walking is no slower than
    /// the stretch door to door over its span (or than the ride door to door from its start).
    /// Only in a day plan (more than two of the user's places): the one ride of a plan of two
    /// places by transit is the user's choice (`notingWalkingNoSlowerEndToEnd`).
    /// - throws: only `CancellationError`.
    func walkingTouchedStretchesNoSlower(in computed: LegComputation, currentLocation: Coordinate?) async throws
        -> LegComputation {
        guard computed.plan.nodes.filter({ !$0.isInferred }).count > 2 else { return computed }
        return try await walkingHopsNoSlower(in: computed, currentLocation: currentLocation) { current, stretch in
            self.isPlannedAfresh(stretch, in: current)
        }
    }
}
