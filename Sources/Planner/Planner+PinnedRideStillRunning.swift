import Foundation

extension Planner {
    /// Whether pinned `leg` still runs as the user chose it from `place`, where its segment
    /// starts: it boards there, or its walk to the first stop leaves from there (both within
    /// `endIsStopMetres`), every change still holds (`changesHold`), and every ride's trip still
    /// calls where and when the ride boards and alights (`calls(ofTripOf:)`: the timetable, or its
    /// live overlay). Asked again, the engine answers the ride it prefers from the time asked, not
    /// the pinned one: after the pinned bus 6 was boarded at Koskipuisto D (09:02:45, the stop of
    /// its trip the ride before comes to), `plan refresh` answered bus 10 at 09:04, arriving in
    /// the same minute, and proposed it instead of the bus the traveller catches. With a walk to
    /// the stop too (session 60: bus 6 at 09:28 and bus 17 at 09:44, pinned as shown after a stay
    /// at Koskipuisto A, 213 m from the stop; `plan pace ID slow` asked from when the slow walk
    /// leaves, where the engine drops the change that saves less than its transfer penalty, and
    /// proposed bus 6 alone beside the two buses the traveller still catches).
    /// A walk to the stop routed for walkers is no way for a traveller who now needs step-free
    /// ones (`access`): such a pin is asked again as before.
    func pinnedRideStillRuns(_ leg: RouteLeg, from place: Place, access: AccessNeed) async -> Bool {
        guard leg.mode == .transit, !leg.hasCancelledRide, let first = leg.rides.first, leg.changesHold else { return false }
        let walkedFrom = leg.walks.first { $0.kind == .access }?.from
        let boardsHere = place.coordinate.distance(to: first.boarding.coordinate) <= configuration.endIsStopMetres
        let walksFromHere = walkedFrom.map { place.coordinate.distance(to: $0) <= configuration.endIsStopMetres } ?? false
        guard boardsHere || (walksFromHere && (!access.isStepFree || leg.accessibility == .stepFree)) else { return false }
        for ride in leg.rides {
            guard Self.calls(of: ride, in: await routing.calls(ofTripOf: ride)) != nil else { return false }
        }
        return true
    }
}
