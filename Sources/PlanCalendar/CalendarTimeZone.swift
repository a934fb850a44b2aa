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
        var transition = zone.nextDaylightSavingTimeTransition(after: begin)
        var added = 0
        while let instant = transition, instant < end {
            let from = zone.secondsFromGMT(for: instant.addingTimeInterval(-1)), to = zone.secondsFromGMT(for: instant)
            // An observance starts at the local time of the offset it leaves (RFC 5545 §3.6.5).
            add(to: vtimezone, daylight: zone.isDaylightSavingTime(for: instant), start: instant.addingTimeInterval(Double(from)),
                from: from, to: to, name: zone.abbreviation(for: instant))
            added += 1
            transition = zone.nextDaylightSavingTimeTransition(after: instant)
        }
        if added == 0 {
            let offset = zone.secondsFromGMT(for: begin)
            add(to: vtimezone, daylight: false, start: Date(timeIntervalSince1970: 0), from: offset, to: offset,
                name: zone.abbreviation(for: begin))
        }
        return vtimezone
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
