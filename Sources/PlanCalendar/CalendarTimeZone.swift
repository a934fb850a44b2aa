import CICal
import Foundation

/// The VTIMEZONE of a region's zone, built from Foundation's (the system tzdata's) transitions
/// rather than libical's builtin zones, so that the file says what the daemon itself computes
/// with. It lists every transition from the year before `years` to the year after, one
/// STANDARD or DAYLIGHT observance each; a zone without daylight saving gets one STANDARD.
enum CalendarTimeZone {
    /// A new VTIMEZONE component (the caller owns it) with TZID `zone.identifier`.
    static func component(_ zone: TimeZone, years: ClosedRange<Int>) -> OpaquePointer {
        let vtimezone = icalcomponent_new(ICAL_VTIMEZONE_COMPONENT)!
        icalcomponent_add_property(vtimezone, icalproperty_new_tzid(zone.identifier))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let begin = utc.date(from: DateComponents(year: years.lowerBound - 1, month: 1, day: 1))!
        let end = utc.date(from: DateComponents(year: years.upperBound + 2, month: 1, day: 1))!
        let names = tzdataNames(zone)
        func name(_ daylight: Bool, _ offset: Int, at instant: Date) -> String? {
            names[ObservanceKind(daylight: daylight, offset: offset)] ?? zone.abbreviation(for: instant)
        }
        var transition = zone.nextDaylightSavingTimeTransition(after: begin)
        var added = 0
        while let instant = transition, instant < end {
            let from = zone.secondsFromGMT(for: instant.addingTimeInterval(-1)), to = zone.secondsFromGMT(for: instant)
            // An observance starts at the local time of the offset it leaves (RFC 5545 §3.6.5).
            let daylight = zone.isDaylightSavingTime(for: instant)
            add(to: vtimezone, daylight: daylight, start: instant.addingTimeInterval(Double(from)),
                from: from, to: to, name: name(daylight, to, at: instant))
            added += 1
            transition = zone.nextDaylightSavingTimeTransition(after: instant)
        }
        if added == 0 {
            let offset = zone.secondsFromGMT(for: begin)
            add(to: vtimezone, daylight: false, start: Date(timeIntervalSince1970: 0), from: offset, to: offset,
                name: name(false, offset, at: begin))
        }
        return vtimezone
    }

    /// An observance's kind: daylight or standard time, and its offset from UTC in seconds.
    private struct ObservanceKind: Hashable {
        var daylight: Bool
        var offset: Int
    }

    /// The names tzdata gives the zone's observances (`EET`, `EEST`), the newest rule's for each
    /// kind, read through libical's copy of the system's zone: Foundation on Linux names them
    /// `GMT+3`. Empty when libical does not know the zone (Foundation's names are used then).
    private static func tzdataNames(_ zone: TimeZone) -> [ObservanceKind: String] {
        guard let known = icaltimezone_get_builtin_timezone(zone.identifier),
              let component = icaltimezone_get_component(known) else { return [:] }
        var names: [ObservanceKind: String] = [:]
        for kind in [ICAL_XSTANDARD_COMPONENT, ICAL_XDAYLIGHT_COMPONENT] {
            var observance = icalcomponent_get_first_component(component, kind)
            while let current = observance {
                // In the order of their start: a later rule's name wins.
                if let offset = icalcomponent_get_first_property(current, ICAL_TZOFFSETTO_PROPERTY),
                   let name = icalcomponent_get_first_property(current, ICAL_TZNAME_PROPERTY),
                   let text = icalproperty_get_tzname(name) {
                    names[ObservanceKind(daylight: kind == ICAL_XDAYLIGHT_COMPONENT,
                                         offset: Int(icalproperty_get_tzoffsetto(offset)))] = String(cString: text)
                }
                observance = icalcomponent_get_next_component(component, kind)
            }
        }
        return names
    }

    private static func add(to vtimezone: OpaquePointer, daylight: Bool, start wallClockAsUTC: Date, from: Int, to: Int,
                            name: String?) {
        let observance = icalcomponent_new(daylight ? ICAL_XDAYLIGHT_COMPONENT : ICAL_XSTANDARD_COMPONENT)!
        icalcomponent_add_property(observance, icalproperty_new_dtstart(icaltime_from_string(
            CalendarText.localTime(wallClockAsUTC, in: TimeZone(identifier: "UTC")!))))
        icalcomponent_add_property(observance, icalproperty_new_tzoffsetfrom(Int32(from)))
        icalcomponent_add_property(observance, icalproperty_new_tzoffsetto(Int32(to)))
        if let name { icalcomponent_add_property(observance, icalproperty_new_tzname(name)) }
        icalcomponent_add_component(vtimezone, observance)
    }
}
