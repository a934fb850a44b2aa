import Foundation
import Planner

/// What a plan's notifications say: "Leave at 08:06 for Hervanta", its first two steps with
/// their times, and the change notices' one-line summaries. Pure: the plan, the leave time and
/// the zone in, text out.
enum ReminderText {
    static func leaveTitle(_ plan: RoutePlan, leaveAt: Date, zone: TimeZone) -> String {
        "Leave at \(clock(leaveAt, zone)) for \(destination(of: plan) ?? "your destination")"
    }

    /// Where the trip goes: its last place; for a round trip, which ends where it starts, its
    /// first other place ("Tampere-talo and back"), as "for Keskustori" would say to go where the
    /// traveller already is.
    static func destination(of plan: RoutePlan) -> String? {
        guard let first = plan.nodes.first?.place, let last = plan.nodes.last?.place else { return nil }
        guard last.coordinate.distance(to: first.coordinate) <= roundTripMetres else { return last.name }
        let away = plan.nodes.first { !$0.isInferred && $0.place.coordinate.distance(to: first.coordinate) > roundTripMetres }
        return away.map { "\($0.place.name) and back" } ?? last.name
    }

    /// Ends this close are one place: a round trip.
    static let roundTripMetres = 50.0

    /// The first two steps, one a line: "08:06 walk 4 min to Keskustori F", "08:12 bus 6 Keskustori F → Hervanta (08:31)".
    static func leaveBody(_ plan: RoutePlan, leaveAt: Date, zone: TimeZone, walkFromHere: TimeInterval?) -> String {
        var lines: [String] = []
        if let walkFromHere, let first = plan.nodes.first {
            lines.append("\(clock(leaveAt, zone)) walk \(minutes(walkFromHere)) to \(first.place.name)")
        }
        let departures = plan.departureTimes(startingAt: leaveAt)
        for index in 0..<plan.segmentCount where lines.count < 2 {
            guard let leg = plan.legs[index] else { break }
            let start = leg.departure ?? departures[index] ?? leaveAt
            let to = plan.nodes[index + 1].place.name
            switch leg.mode {
            case .walk: lines.append("\(clock(start, zone)) walk \(minutes(leg.expectedTravelTime)) to \(to)")
            case .car: lines.append("\(clock(start, zone)) drive \(minutes(leg.expectedTravelTime)) to \(to)")
            case .bike: lines.append("\(clock(start, zone)) ride \(minutes(leg.expectedTravelTime)) by bike to \(to)")
            case .transit:
                guard let firstRide = leg.rides.first else {
                    lines.append("\(clock(start, zone)) walk \(minutes(leg.expectedTravelTime)) to \(to)")
                    continue
                }
                let access = firstRide.boarding.time.timeIntervalSince(start)
                if access >= 60 {
                    lines.append("\(clock(start, zone)) walk \(ShownTime.text(from: start, to: firstRide.boarding.time)) to \(firstRide.boarding.name)")
                }
                for ride in leg.rides {
                    lines.append("\(clock(ride.boarding.time, zone)) \(ride.vehicle) \(ride.lineName) \(ride.boarding.name) → "
                                 + "\(ride.alighting.name) (\(clock(ride.alighting.time, zone)))")
                }
            }
        }
        return lines.prefix(2).joined(separator: "\n")
    }

    /// "HH:MM" in `zone`, by the one display rule (`ShownTime`).
    /// A delay notice's title, against the timetable: "Line 3 late by 1 h 15 min", "… early by 2 min".
    static func delayTitle(line: String, delaySeconds: Int) -> String {
        "Line \(line) \(delaySeconds >= 0 ? "late" : "early") by \(ShownTime.delay(seconds: delaySeconds))"
    }

    static func clock(_ date: Date, _ zone: TimeZone) -> String { ShownTime.clock(date, timeZone: zone) }

    /// The body of a missed connection's notice: the departure of step `segment` (0-based) that can
    /// no longer be reached, or, for a journey missed at a change a realtime delay broke
    /// (`RoutePlan.missedChange`), that change: "The change at Kivikirkko on step 2 can no longer
    /// be made: bus 6 leaves 09:33, bus 19 gets you there 09:35; …" (its first departure is caught).
    static func missedConnectionBody(_ plan: RoutePlan, id: Int64, segment: Int, change: (segment: Int, ride: Int, reached: Date)?,
                                     zone: TimeZone) -> String {
        let refresh = "`umctl plan refresh \(id)` finds another"
        if let change, let rides = plan.legs[segment]?.rides, rides.indices.contains(change.ride), change.ride > 0 {
            let (before, missed) = (rides[change.ride - 1], rides[change.ride])
            return "The change at \(missed.boarding.name) on step \(segment + 1) can no longer be made: "
                + "\(missed.vehicle) \(missed.lineName) leaves \(clock(missed.boarding.time, zone)), "
                + "\(before.vehicle) \(before.lineName) gets you there \(clock(change.reached, zone)); \(refresh)"
        }
        let departure = plan.legs[segment]?.departure.map { "The \(clock($0, zone)) departure" } ?? "The departure"
        return "\(departure) of step \(segment + 1) can no longer be reached; \(refresh)"
    }

    static func minutes(_ seconds: TimeInterval) -> String { ShownTime.text(seconds: seconds) }
}
