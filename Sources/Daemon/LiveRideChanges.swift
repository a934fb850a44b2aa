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

    struct Event: Equatable {
        var kind: String
        var fields: [String: JSONValue]
    }

    static func events(planID: Int64, before: RoutePlan, after: RoutePlan, timeZone: TimeZone) -> [Event] {
        guard before.legs.count == after.legs.count else { return [] }
        var events: [Event] = []
        for (index, leg) in after.legs.enumerated() {
            guard let leg, leg.mode == .transit else { continue }
            let earlier = before.legs[index]?.rides ?? []
            for ride in leg.rides {
                guard let tripID = ride.tripID, let old = earlier.first(where: { $0.tripID == tripID }) else { continue }
                var fields: [String: JSONValue] = [
                    "plan_id": .number(Double(planID)), "segment": .number(Double(index + 1)),
                    "line": .string(ride.lineName), "trip_id": .string(tripID), "from": .string(ride.boarding.name),
                ]
                if ride.cancelled && !old.cancelled {
                    events.append(Event(kind: "cancelled", fields: fields))
                    continue
                }
                let moved = ride.boarding.time.timeIntervalSince(old.boarding.time)
                if !ride.cancelled, abs(moved) >= threshold {
                    fields["departure"] = .string(WireTime.string(from: ride.boarding.time, timeZone: timeZone))
                    fields["scheduled_departure"] = ride.boarding.scheduledTime
                        .map { .string(WireTime.string(from: $0, timeZone: timeZone)) } ?? .null
                    fields["delay_s"] = ride.boarding.delaySeconds.map { .number(Double($0)) } ?? .null
                    fields["moved_s"] = .number(moved.rounded())
                    events.append(Event(kind: "delay", fields: fields))
                }
                let known = Set(old.alerts.map(\.id))
                for alert in ride.alerts where !known.contains(alert.id) {
                    var alertFields = fields
                    alertFields["alert_id"] = .string(alert.id)
                    alertFields["header"] = .string(alert.header)
                    alertFields["effect"] = .string(alert.effect)
                    events.append(Event(kind: "alert", fields: alertFields))
                }
            }
        }
        return events
    }
}
