import Foundation
import Planner
import WireProtocol

/// What a refresh with live data changed in a plan's rides, as `watch` events: `delay` (a ride
/// of the plan moved by `threshold` or more), `cancelled` (a ride the plan counts on no longer
/// runs) and `alert` (a service alert newly touching a ride). Each names the plan and the
/// segment (1-based); rides are matched by trip within the same segment.
enum LiveRideChanges {
    /// Two minutes: smaller moves are the timetable's noise, not news.
    static let threshold: TimeInterval = 120

    static func events(planID: Int64, before: RoutePlan, after: RoutePlan, timeZone: TimeZone) -> [DaemonEvent] {
        guard before.legs.count == after.legs.count else { return [] }
        var events: [DaemonEvent] = []
        for (index, leg) in after.legs.enumerated() {
            guard let leg, leg.mode == .transit else { continue }
            let earlier = before.legs[index]?.rides ?? []
            for ride in leg.rides {
                guard let tripID = ride.tripID, let old = earlier.first(where: { $0.tripID == tripID }) else { continue }
                let which = DaemonEvent.RideEvent(planID: planID, segment: index + 1, line: ride.lineName, tripID: tripID,
                                                  from: ride.boarding.name)
                if ride.cancelled && !old.cancelled {
                    events.append(.cancelled(which))
                    continue
                }
                let moved = ride.boarding.time.timeIntervalSince(old.boarding.time)
                if !ride.cancelled, abs(moved) >= threshold {
                    events.append(.delay(which, departure: WireTime.string(from: ride.boarding.time, timeZone: timeZone),
                                         scheduledDeparture: ride.boarding.scheduledTime.map { WireTime.string(from: $0, timeZone: timeZone) },
                                         delayS: ride.boarding.delaySeconds, movedS: Int(moved.rounded())))
                }
                let known = Set(old.alerts.map(\.id))
                for alert in ride.alerts where !known.contains(alert.id) {
                    events.append(.alert(which, alertID: alert.id, header: alert.header, effect: alert.effect))
                }
            }
        }
        return events
    }
}
