import Foundation

/// The stored names of notices (`Reminders.recordSentNotice`): what was sent is kept by this
/// name, so a notice whose name changed would be sent again after an upgrade. The texts are
/// pinned by `NoticeKeyTests`.
enum NoticeKey {
    /// The reminder to leave: one a plan and day (`leave@2026-11-30`).
    static func leave(at leave: Date, in zone: TimeZone) -> String {
        "leave@\(instant(leave, zone).prefix(10))"
    }

    /// The fixed departure of step `step` (from 1) can no longer be caught.
    static func missedConnection(step: Int, departure: Date, in zone: TimeZone) -> String {
        "missed_connection:\(step)@\(instant(departure, zone))"
    }

    /// The timetable changed for the steps `numbers` ("1, 3") at `now`.
    static func pendingUpdate(_ numbers: String, at now: Date, in zone: TimeZone) -> String {
        "pending_update:\(numbers)@\(instant(now, zone))"
    }

    /// A delay of trip `tripID`, keyed by the departure as the event showed it.
    static func delay(tripID: String, departure: Date, in zone: TimeZone) -> String {
        "delay:\(tripID)@\(instant(departure, zone))"
    }

    /// Trip `tripID` is cancelled.
    static func cancelled(tripID: String) -> String { "cancelled:\(tripID)" }

    /// `key` sent again after a snooze that ended at `due`.
    static func snoozed(_ key: String, due: Date, in zone: TimeZone) -> String {
        "\(key)#snoozed@\(instant(due, zone))"
    }

    /// `2022-01-12T08:15:00+02:00` (`Z` at offset zero), seconds truncated: the text the wire
    /// gives an instant (`WireTime.string`), which the keys were first written with;
    /// `NoticeKeyTests` checks the two agree.
    static func instant(_ date: Date, _ zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let local = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down) + Double(offset))
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local)
        let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                          parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        guard offset != 0 else { return text + "Z" }
        let minutes = abs(offset) / 60
        return text + String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
}
