import Foundation
import Planner

/// A stored plan's legs as calendar events: one per leg that has times, timed as `plan show`
/// times them (`departureTimes`, `schedule`). A calendar never shows an impossible day: from a
/// missed connection on, the legs are marked "Missed" and cancelled (they will not be travelled
/// as they stand), and every event of a plan with a segment without a route says so.
public enum PlanCalendarEvents {
    /// What names one stored plan in a calendar: its id, generation and region zone, and the
    /// daemon whose store it lives in (`source`, e.g. a hash of its data directory), so that two
    /// daemons' plan 1 never share a UID.
    public struct Identity: Sendable {
        public var id: Int64
        public var generation: Int64
        public var source: String
        public var timeZone: TimeZone

        public init(id: Int64, generation: Int64, source: String, timeZone: TimeZone) {
            self.id = id
            self.generation = generation
            self.source = source
            self.timeZone = timeZone
        }
    }

    /// - parameter now: the start of a "leave now" plan (as `plan show` uses it).
    public static func events(of plan: RoutePlan, _ identity: Identity, now: Date) -> [CalendarEvent] {
        let fallback: Date? = plan.timePreference == .leaveNow ? now : nil
        let arrivals = plan.schedule(startingAt: fallback)
        let departures = plan.departureTimes(startingAt: fallback)
        let keys = plan.segmentKeys
        let missed = plan.brokenConnection(now: now)
        let changes = plan.missedChanges(now: now)
        let missing = plan.legs.indices.filter { plan.legs[$0] == nil }.map { String($0 + 1) }
        let incomplete = missing.isEmpty ? nil
            : "Incomplete plan: no route on segment\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))"
        return keys.indices.compactMap { index -> CalendarEvent? in
            guard let leg = plan.legs[index], let start = leg.departure ?? departures[index] else { return nil }
            // A late walk (the one that misses the connection) takes its own time, as `plan show` shows it.
            let end = leg.arrival ?? (missed == index ? nil : arrivals[index + 1]) ?? start.addingTimeInterval(leg.expectedTravelTime)
            let link = try? GoogleMapsLink.build(plan: plan, segment: index, timeZone: identity.timeZone, now: fallback)
            var title = summary(leg, to: plan.nodes[index + 1].place.name)
            var notes: [String] = []
            let broken = missed.map { index >= $0 } ?? false
            if let missed, index == missed, let change = changes[index], let rides = plan.legs[index]?.rides, change.ride > 0 {
                // Caught at its start, the journey is missed at a change a realtime delay broke: say that one.
                let (before, ride) = (rides[change.ride - 1], rides[change.ride])
                title = "Missed: " + title
                notes.append("Missed change at \(ride.boarding.name): \(ride.vehicle) \(ride.lineName) leaves "
                             + "\(clock(ride.boarding.time, identity.timeZone)), \(before.vehicle) \(before.lineName) gets there "
                             + "\(clock(change.reached, identity.timeZone)); this leg is not travelled as planned.")
            } else if let missed, index == missed {
                title = "Missed: " + title
                notes.append("Missed connection: the traveller cannot be there in time; this leg is not travelled as planned.")
            } else if let missed, broken {
                title = "Not travelled: " + title
                notes.append("After the missed connection on segment \(missed + 1): not travelled as planned.")
            }
            if let incomplete {
                title = "Incomplete plan: " + title
                notes.append(incomplete + ".")
            }
            let description = notes + [plan.nodes[index].place.name + " → " + plan.nodes[index + 1].place.name
                                       + " (segment \(index + 1) of \(keys.count))"]
                + steps(leg, to: plan.nodes[index + 1].place.name, timeZone: identity.timeZone)
                + (link.map { ["Google Maps: \($0.url)"] } ?? [])
            return CalendarEvent(uid: uid(identity, key: keys[index]), sequence: Int(clamping: identity.generation),
                                 summary: plainText(title),
                                 location: plainText(leg.rides.first?.boarding.name ?? plan.nodes[index].place.name),
                                 start: start, end: end, timeZone: identity.timeZone, url: link?.url,
                                 description: description.map(plainText).joined(separator: "\n"), cancelled: broken)
        }
    }

    /// A leg step by step, one line each: "Walk 4 min (310 m) to Keskustori B", "Tram 3 Keskustori
    /// B 10:26 → Tampere-talo 10:31", "Drive 9 min (5.1 km) to Hervanta".
    static func steps(_ leg: RouteLeg, to destination: String, timeZone: TimeZone) -> [String] {
        func walk(_ seconds: TimeInterval, _ metres: Double?, _ to: String, verb: String = "Walk") -> String {
            let time = ShownTime.text(minutes: max(1, ShownTime.minutes(seconds)))
            let distance = metres.map { $0 < 1000 ? " (\(Int($0.rounded())) m)" : " (\(String(format: "%.1f", $0 / 1000)) km)" } ?? ""
            return "\(verb) \(time)\(distance) to \(to)"
        }
        guard !leg.rides.isEmpty else {
            return [walk(leg.expectedTravelTime, leg.distance, destination, verb: leg.mode == .car ? "Drive" : leg.mode == .bike ? "Ride" : "Walk")]
        }
        var lines: [String] = []
        var walks = leg.walks.makeIterator()
        for ride in leg.rides {
            // The walk before each ride (access, then each change), when it takes a moment.
            if let step = walks.next(), step.duration >= 30, step.distance >= 1 { lines.append(walk(step.duration, step.distance, step.toName)) }
            let vehicle = ride.vehicle.prefix(1).uppercased() + ride.vehicle.dropFirst()
            lines.append("\(vehicle) \(ride.lineName) \(ride.boarding.name) \(clock(ride.boarding.time, timeZone)) → "
                         + "\(ride.alighting.name) \(clock(ride.alighting.time, timeZone))"
                         + (ride.headsign.map { " (towards \($0))" } ?? "") + (ride.cancelled ? ride.skippedStopName.map { " (does not stop at \($0))" } ?? " (cancelled)" : ""))
        }
        if let egress = leg.walks.last, egress.kind == .egress, egress.duration >= 30, egress.distance >= 1 {
            lines.append(walk(egress.duration, egress.distance, destination))
        }
        return lines
    }

    /// "HH:MM" on the wall clock of `timeZone`.
    static func clock(_ date: Date, _ timeZone: TimeZone) -> String { ShownTime.clock(date, timeZone: timeZone) }

    /// "Bus 6 Rautatieasema C → Opiskelija D" (each ride of a leg, joined), "Walk to X", "Drive to X".
    public static func summary(_ leg: RouteLeg, to destination: String) -> String {
        guard leg.rides.isEmpty else {
            return leg.rides.map { ride in
                "\(ride.vehicle.prefix(1).uppercased())\(ride.vehicle.dropFirst()) \(ride.lineName) \(ride.boarding.name) → \(ride.alighting.name)"
            }.joined(separator: ", ")
        }
        return leg.mode == .car ? "Drive to \(destination)" : "Walk to \(destination)"
    }

    /// A text without control characters (RFC 5545 TEXT allows none but tab) nor their visible
    /// symbols (U+2400…U+2426, which umctl shows in their place), so that the file's only
    /// controls are its own line ends.
    static func plainText(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { scalar in
            !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x2400...0x2426).contains(scalar.value))
        }))
    }

    /// `plan-ID-SEGMENT-SOURCE@usefulmap`: the segment by its ends' place IDs (`SegmentKey`), which
    /// survive edits elsewhere in the plan, and `-N` after them for the Nth segment between the
    /// same two places (N ≥ 2; the first has none, as before occurrences were counted);
    /// characters other than letters, digits, `.`, `-` and `_` become `_` so the UID stays one
    /// plain word.
    static func uid(_ identity: Identity, key: SegmentKey) -> String {
        func word(_ text: String) -> String {
            String(text.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
        }
        let occurrence = key.occurrence == 0 ? "" : "-\(key.occurrence + 1)"
        return "plan-\(identity.id)-\(word(key.fromID))-\(word(key.toID))\(occurrence)-\(word(identity.source))@usefulmap"
    }

    /// A short stable hash of a text (64-bit FNV-1a in hex), e.g. of the data directory's path.
    public static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
