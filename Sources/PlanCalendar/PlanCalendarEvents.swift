import Foundation
import Planner

/// A stored plan's legs as calendar events: one per leg that has times, timed as `plan show`
/// times them (`departureTimes`, `schedule`).
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
        return keys.indices.compactMap { index -> CalendarEvent? in
            guard let leg = plan.legs[index], let start = leg.departure ?? departures[index] else { return nil }
            let end = leg.arrival ?? arrivals[index + 1] ?? start.addingTimeInterval(leg.expectedTravelTime)
            let link = try? GoogleMapsLink.build(plan: plan, segment: index, timeZone: identity.timeZone, now: fallback)
            return CalendarEvent(uid: uid(identity, key: keys[index]), sequence: Int(clamping: identity.generation),
                                 summary: plainText(summary(leg, to: plan.nodes[index + 1].place.name)),
                                 location: plainText(leg.rides.first?.boarding.name ?? plan.nodes[index].place.name),
                                 start: start, end: end, timeZone: identity.timeZone, url: link?.url)
        }
    }

    /// "Bus 6 Rautatieasema C → Opiskelija D" (each ride of a leg, joined), "Walk to X", "Drive to X".
    public static func summary(_ leg: RouteLeg, to destination: String) -> String {
        guard leg.rides.isEmpty else {
            return leg.rides.map { ride in
                "\(ride.vehicle.prefix(1).uppercased())\(ride.vehicle.dropFirst()) \(ride.lineName) \(ride.boarding.name) → \(ride.alighting.name)"
            }.joined(separator: ", ")
        }
        return leg.mode == .car ? "Drive to \(destination)" : "Walk to \(destination)"
    }

    /// A name without control characters (RFC 5545 TEXT allows none but tab) nor their visible
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
