import CICal
import Foundation

/// An iCalendar file read back with libical (the library the daemon writes it with), each
/// VEVENT's DTSTART and DTEND turned into instants through the file's own VTIMEZONE.
struct ICalendarReading {
    struct Event: Equatable {
        var uid: String
        var sequence: Int
        var summary: String
        var location: String
        var url: String?
        var description: String?
        /// STATUS:CANCELLED
        var cancelled: Bool
        var tzid: String?
        var start: Date
        var end: Date
    }

    var events: [Event] = []
    /// The TZIDs of the file's VTIMEZONEs.
    var timeZones: [String] = []

    init(_ text: String) throws {
        guard let calendar = icalparser_parse_string(text) else { throw HarnessError("libical cannot parse the file") }
        defer { icalcomponent_free(calendar) }
        guard icalcomponent_isa(calendar) == ICAL_VCALENDAR_COMPONENT else { throw HarnessError("not a VCALENDAR") }
        var zone = icalcomponent_get_first_component(calendar, ICAL_VTIMEZONE_COMPONENT)
        while let component = zone {
            if let property = icalcomponent_get_first_property(component, ICAL_TZID_PROPERTY) {
                timeZones.append(String(cString: icalproperty_get_tzid(property)))
            }
            zone = icalcomponent_get_next_component(calendar, ICAL_VTIMEZONE_COMPONENT)
        }
        var next = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT)
        while let event = next {
            func text(_ kind: icalproperty_kind, _ get: (OpaquePointer?) -> UnsafePointer<CChar>?) -> String? {
                icalcomponent_get_first_property(event, kind).flatMap(get).map { String(cString: $0) }
            }
            func instant(_ kind: icalproperty_kind) throws -> (Date, String?) {
                guard let property = icalcomponent_get_first_property(event, kind) else { throw HarnessError("no \(kind)") }
                let tzid = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER).flatMap(icalparameter_get_tzid)
                    .map { String(cString: $0) }
                let time = kind == ICAL_DTSTART_PROPERTY ? icalproperty_get_dtstart(property) : icalproperty_get_dtend(property)
                let zone = tzid.flatMap { icalcomponent_get_timezone(calendar, $0) }
                guard tzid == nil || zone != nil else { throw HarnessError("no VTIMEZONE for \(tzid ?? "")") }
                return (Date(timeIntervalSince1970: TimeInterval(icaltime_as_timet_with_zone(time, zone))), tzid)
            }
            let (start, tzid) = try instant(ICAL_DTSTART_PROPERTY)
            events.append(Event(uid: text(ICAL_UID_PROPERTY, icalproperty_get_uid) ?? "",
                                sequence: Int(icalcomponent_get_sequence(event)),
                                summary: text(ICAL_SUMMARY_PROPERTY, icalproperty_get_summary) ?? "",
                                location: text(ICAL_LOCATION_PROPERTY, icalproperty_get_location) ?? "",
                                url: text(ICAL_URL_PROPERTY, icalproperty_get_url),
                                description: text(ICAL_DESCRIPTION_PROPERTY, icalproperty_get_description),
                                cancelled: icalcomponent_get_first_property(event, ICAL_STATUS_PROPERTY)
                                    .map { icalproperty_get_status($0) == ICAL_STATUS_CANCELLED } ?? false,
                                tzid: tzid, start: start, end: try instant(ICAL_DTEND_PROPERTY).0))
            next = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)
        }
    }
}
