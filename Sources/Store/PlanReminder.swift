import Foundation

/// A plan's own reminder choice (`plan remind`): on or off, and its lead when not the daemon's.
public struct PlanReminder: Hashable, Sendable {
    public var enabled: Bool
    /// Seconds before leaving; `nil`: the daemon's `--remind-lead`.
    public var lead: TimeInterval?

    public init(enabled: Bool, lead: TimeInterval?) {
        self.enabled = enabled
        self.lead = lead
    }
}

/// A notification already sent for a plan (`Reminders.sentNotices`).
public struct SentNotice: Hashable, Sendable {
    /// Its name within the plan, e.g. "leave@2022-01-12" (once a plan and day).
    public var notice: String
    /// The notification server's ID, which the plan's next notice replaces; `nil` when none showed it.
    public var serverID: UInt32?
    public var sentAt: Date

    public init(notice: String, serverID: UInt32?, sentAt: Date) {
        self.notice = notice
        self.serverID = serverID
        self.sentAt = sentAt
    }
}
