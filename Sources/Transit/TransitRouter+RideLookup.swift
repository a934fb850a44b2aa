import Foundation
import Planner

extension TransitRouter {
    /// The timetable run a ride is on, and its boarding and alighting positions in the pattern:
    /// the trip with its trip_id whose call at a stop with the boarding stop's ID leaves at the
    /// ride's timetable time (`scheduledTime` when the ride carries live times), and which later
    /// calls at a stop with the alighting stop's ID.
    ///
    /// Stops are compared by ID within the trip's own pattern, never through one index entry per
    /// ID: feeds of one region may all have a stop "S1" and a trip "T1", and each ride must be
    /// found in its own feed.
    func timetableRun(of ride: TransitRide, trips: TripLookup) -> (run: RealtimeOverlay.Run, board: Int, alight: Int)? {
        let tt = timetable
        guard let boardID = ride.boarding.stopID, let alightID = ride.alighting.stopID else { return nil }
        let leavesAt = ride.boarding.scheduledTime ?? ride.boarding.time
        let leaves = Int(leavesAt.timeIntervalSince1970.rounded())
        let localDay = ServiceDate.localDay(of: leavesAt, in: tt.timeZone)
        for trip in trips.trips(withID: ride.tripID ?? "") {
            let pattern = tt.patterns[Int(trips.tripPattern[Int(trip)])]
            let n = Int(pattern.stopCount), first = Int(pattern.stopsStart)
            func stopID(at position: Int) -> String { tt.stops[Int(tt.patternStops[first + position])].id }
            let times = Int(pattern.timesStart) + (Int(trip) - Int(pattern.firstTrip)) * n
            let service = tt.services[Int(tt.tripServices[Int(trip)])]
            for board in 0..<n where stopID(at: board) == boardID {
                guard let alight = (board + 1..<n).first(where: { stopID(at: $0) == alightID }) else { continue }
                for day in (localDay - 2)...localDay where service.runs(on: day) {
                    let ref = ServiceDate.referenceInstant(day, in: tt.timeZone)
                    if ref + Int(tt.departures[times + board]) == leaves {
                        return (RealtimeOverlay.Run(trip: trip, day: Int32(day)), board, alight)
                    }
                }
            }
        }
        return nil
    }
}
