import Foundation
import Planner

extension TransitRouter {
    /// Every call of the run `ride` is on (found as `timetableRun` finds it), in order, with its
    /// times as the overlay in force sees them (the timetable's when it says nothing of the run);
    /// empty for a ride not in the timetable. The planner chooses the stop of the trip to board
    /// (leave) it at from these (docs/planner.md, "Access stops").
    public func calls(ofTripOf ride: TransitRide) -> [TripCall] {
        let tt = timetable
        let trips = realtime.trips(tt)
        var asScheduled = ride
        asScheduled.boarding.time = ride.boarding.scheduledTime ?? ride.boarding.time
        asScheduled.boarding.scheduledTime = nil
        guard let (run, _, _) = timetableRun(of: asScheduled, trips: trips) else { return [] }
        let pattern = tt.patterns[Int(trips.tripPattern[Int(run.trip)])]
        let n = Int(pattern.stopCount), first = Int(pattern.stopsStart)
        let ref = ServiceDate.referenceInstant(Int(run.day), in: tt.timeZone)
        var arrivals = tt.arrivals, departures = tt.departures, flags = tt.patternFlags
        var times = Int(pattern.timesStart) + (Int(run.trip) - Int(pattern.firstTrip)) * n
        var flagsStart = first
        if let overlay = realtime.snapshot, let live = overlay.liveRuns[run],
           let livePattern = overlay.patterns.patterns.first(where: { live >= $0.firstTrip && live < $0.firstTrip + $0.tripCount }) {
            arrivals = overlay.patterns.arrivals
            departures = overlay.patterns.departures
            flags = overlay.patterns.flags
            times = Int(livePattern.timesStart) + Int(live - livePattern.firstTrip) * Int(livePattern.stopCount)
            flagsStart = Int(livePattern.stopsStart)
        }
        return (0..<n).map { position in
            let stop = tt.stops[Int(tt.patternStops[first + position])]
            return TripCall(stopID: stop.id, name: stop.name, coordinate: stop.coordinate,
                            arrival: Date(timeIntervalSince1970: TimeInterval(ref + Int(arrivals[times + position]))),
                            departure: Date(timeIntervalSince1970: TimeInterval(ref + Int(departures[times + position]))),
                            canBoard: flags[flagsStart + position] & Timetable.canBoard != 0,
                            canAlight: flags[flagsStart + position] & Timetable.canAlight != 0)
        }
    }
}
