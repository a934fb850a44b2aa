import Foundation
import WireProtocol

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

    /// `2022-01-12T08:15:00+02:00`, seconds truncated.
    static func instant(_ date: Date, _ zone: TimeZone) -> String {
        WireTime.string(from: date, timeZone: zone)
    }
}
