import Foundation

/// One leg of a plan as a calendar event (a VEVENT): what the traveller does, where, and when.
public struct CalendarEvent: Hashable, Sendable {
    /// Stays the same across the plan's updates (RFC 5545 §3.8.4.7).
    public var uid: String
    /// Grows with every change of the plan (its generation).
    public var sequence: Int
    public var summary: String
    public var location: String
    public var start: Date
    public var end: Date
    /// The zone of the plan's region: DTSTART and DTEND are its wall-clock times, with its TZID.
    public var timeZone: TimeZone
    /// The leg's Google Maps link (`plan link`), when one can be built.
    public var url: String?
    /// The leg in words, one step a line: its stops, lines and walks, and the link (DESCRIPTION).
    public var description: String?
    /// The leg will not be travelled as it stands (a connection before it is missed): STATUS:CANCELLED.
    public var cancelled: Bool

    public init(uid: String, sequence: Int, summary: String, location: String, start: Date, end: Date,
                timeZone: TimeZone, url: String?, description: String? = nil, cancelled: Bool = false) {
        self.uid = uid
        self.sequence = sequence
        self.summary = summary
        self.location = location
        self.start = start
        self.end = end
        self.timeZone = timeZone
        self.url = url
        self.description = description
        self.cancelled = cancelled
    }
}
