import CICal
import Foundation

/// An iCalendar file (RFC 5545) of plan legs, built with libical: one VCALENDAR with a
/// VTIMEZONE per region zone its events use, and one VEVENT per leg, whose DTSTART and DTEND
/// are wall-clock times with that zone's TZID.
///
/// ```swift
/// let text = CalendarText.ics(events, stamp: now)
/// ```
public enum CalendarText {
    public static let mediaType = "text/calendar"

    /// - parameter stamp: the DTSTAMP of every event (when the file was made).
    public static func ics(_ events: [CalendarEvent], stamp: Date) -> String {
        let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)!
        defer { icalcomponent_free(calendar) }
        icalcomponent_add_property(calendar, icalproperty_new_version("2.0"))
        icalcomponent_add_property(calendar, icalproperty_new_prodid("-//Useful Map//usefulmapd//EN"))
        icalcomponent_add_property(calendar, icalproperty_new_calscale("GREGORIAN"))
        icalcomponent_add_property(calendar, icalproperty_new_method(ICAL_METHOD_PUBLISH))
        for zone in Set(events.map(\.timeZone)).sorted(by: { $0.identifier < $1.identifier }) {
            let years = events.filter { $0.timeZone == zone }.flatMap { [$0.start, $0.end] }.map { year(of: $0, in: zone) }
            icalcomponent_add_component(calendar, CalendarTimeZone.component(zone, years: years.min()!...years.max()!))
        }
        let utc = icaltimezone_get_utc_timezone()
        for event in events {
            let vevent = icalcomponent_new(ICAL_VEVENT_COMPONENT)!
            icalcomponent_add_property(vevent, icalproperty_new_uid(event.uid))
            icalcomponent_add_property(vevent, icalproperty_new_sequence(Int32(clamping: event.sequence)))
            icalcomponent_add_property(vevent, icalproperty_new_dtstamp(
                icaltime_from_timet_with_zone(time_t(stamp.timeIntervalSince1970.rounded(.down)), 0, utc)))
            for (date, make) in [(event.start, icalproperty_new_dtstart), (event.end, icalproperty_new_dtend)] {
                let property = make(icaltime_from_string(localTime(date, in: event.timeZone)))!
                icalproperty_add_parameter(property, icalparameter_new_tzid(event.timeZone.identifier))
                icalcomponent_add_property(vevent, property)
            }
            icalcomponent_add_property(vevent, icalproperty_new_summary(event.summary))
            icalcomponent_add_property(vevent, icalproperty_new_location(event.location))
            if let url = event.url { icalcomponent_add_property(vevent, icalproperty_new_url(url)) }
            if let description = event.description { icalcomponent_add_property(vevent, icalproperty_new_description(description)) }
            if event.cancelled { icalcomponent_add_property(vevent, icalproperty_new_status(ICAL_STATUS_CANCELLED)) }
            icalcomponent_add_component(calendar, vevent)
        }
        guard let text = icalcomponent_as_ical_string_r(calendar) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// `YYYYMMDDTHHMMSS` on the wall clock of `zone` (a DATE-TIME without its zone), seconds dropped
    /// below the whole second.
    static func localTime(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
                      c.second ?? 0)
    }

    static func year(of date: Date, in zone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.component(.year, from: date)
    }
}
