import Foundation
import Planner

/// What a refresh with live data changed in a plan's rides, as `watch` events: `delay` (a ride
/// of the plan moved by `threshold` or more), `cancelled` (a ride the plan counts on no longer
/// runs) and `alert` (a service alert newly touching a ride). Each names the plan and the
/// segment (1-based) the ride is in after the refresh. Rides are matched by trip across the
/// whole plan, as a refresh may change the number of legs (inferred stops planned again).
enum LiveRideChanges {
    /// Two minutes: smaller moves are the timetable's noise, not news.
    static let threshold: TimeInterval = 120

    static func events(planID: Int64, before: RoutePlan, after: RoutePlan, timeZone: TimeZone) -> [DaemonEvent] {
        let earlier = before.legs.compactMap { $0 }.filter { $0.mode == .transit }.flatMap(\.rides)
        var events: [DaemonEvent] = []
        for (index, leg) in after.legs.enumerated() {
            guard let leg, leg.mode == .transit else { continue }
            for ride in leg.rides {
                guard let tripID = ride.tripID, let old = Self.ride(tripID, boardingAt: ride.boarding, in: earlier) else { continue }
                let which = DaemonEvent.RideEvent(planID: planID, segment: index + 1, line: ride.lineName, tripID: tripID,
                                                  from: ride.boarding.name)
                if ride.cancelled && !old.cancelled {
                    var which = which
                    which.skippedStop = ride.skippedStopName
                    events.append(.cancelled(which))
                    continue
                }
                // Boarding the trip at another stop now is a new plan, not a delay.
                let moved = ride.boarding.time.timeIntervalSince(old.boarding.time)
                if !ride.cancelled, Self.sameStop(old.boarding, ride.boarding), abs(moved) >= threshold {
                    events.append(.delay(which, departure: ride.boarding.time, scheduledDeparture: ride.boarding.scheduledTime,
                                         timeZone: timeZone, delayS: ride.boarding.delaySeconds, movedS: Int(moved.rounded())))
                }
                let known = Set(old.alerts.map(\.id))
                for alert in ride.alerts where !known.contains(alert.id) {
                    events.append(.alert(which, alertID: alert.id, header: alert.header, effect: alert.effect))
                }
            }
        }
        return events
    }

    /// The earlier ride of the trip, the one boarding at the same stop when the trip is ridden twice.
    private static func ride(_ tripID: String, boardingAt call: TransitStopCall, in rides: [TransitRide]) -> TransitRide? {
        let sameTrip = rides.filter { $0.tripID == tripID }
        return sameTrip.first { sameStop($0.boarding, call) } ?? sameTrip.first
    }

    private static func sameStop(_ one: TransitStopCall, _ other: TransitStopCall) -> Bool {
        one.stopID == other.stopID && one.name == other.name
    }
}
