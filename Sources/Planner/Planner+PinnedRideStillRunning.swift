import Foundation

extension Planner {
    /// Whether pinned `leg` still runs as the user chose it from `place`, the stop its segment
    /// starts at: it boards there (within `endIsStopMetres`) and every ride's trip still calls
    /// where and when the ride boards and alights (`calls(ofTripOf:)`: the timetable, or its live
    /// overlay). Asked again from the stop, the engine answers the ride it prefers, not the
    /// pinned one: after the pinned bus 6 was boarded at Koskipuisto D (09:02:45, the stop of its
    /// trip the ride before comes to), `plan refresh` answered bus 10 at 09:04, arriving in the
    /// same minute, and proposed it instead of the bus the traveller catches.
    func pinnedRideStillRuns(_ leg: RouteLeg, from place: Place) async -> Bool {
        guard leg.mode == .transit, !leg.hasCancelledRide, let first = leg.rides.first,
              place.coordinate.distance(to: first.boarding.coordinate) <= configuration.endIsStopMetres else { return false }
        for ride in leg.rides {
            guard Self.calls(of: ride, in: await routing.calls(ofTripOf: ride)) != nil else { return false }
        }
        return true
    }
}
