import Foundation
import SQLite

/// Plans' reminder choices and the notifications sent, as store queries:
/// `try await store.write(Reminders.set(ofPlan: id, reminder))`.
public enum Reminders {
    /// Sets plan `id`'s reminder on or off, with its own lead (`nil`: the daemon's).
    /// - throws: `StoreError.notFound` for an unknown plan; `.invalidInput` for a lead outside
    ///   `Store.reminderLeadRange`.
    public static func set(ofPlan id: Int64, _ reminder: PlanReminder) -> StoreWrite<Void> {
        StoreWrite { db in
            if let lead = reminder.lead, !Store.reminderLeadRange.contains(lead) {
                throw StoreError.invalidInput(
                    "reminder lead \(Int(lead)) s must be 0 to \(Int(Store.reminderLeadRange.upperBound)) s (a day)")
            }
            guard try !db.query("SELECT 1 FROM plan WHERE id = ?", [.integer(id)], { _ in true }).isEmpty else {
                throw StoreError.notFound("plan \(id)")
            }
            try db.run("INSERT OR REPLACE INTO plan_reminder(plan_id, enabled, lead_s) VALUES (?, ?, ?)",
                       [.integer(id), .integer(reminder.enabled ? 1 : 0),
                        try StoredValues.optionalReal(reminder.lead, field: "reminder lead")])
        }
    }

    /// Plan `id`'s own reminder choice; `nil` when it has none (the daemon's defaults apply).
    public static func reminder(ofPlan id: Int64) -> StoreRead<PlanReminder?> {
        StoreRead { db in
            try db.query("SELECT enabled, lead_s FROM plan_reminder WHERE plan_id = ?", [.integer(id)]) { row in
                PlanReminder(enabled: row.bool(0), lead: row.optionalDouble(1))
            }.first
        }
    }

    /// Records that `notice` was sent for plan `id` (the server's ID if one showed it). Gives
    /// false, changing nothing, when it had been sent already: each notice goes out once.
    public static func recordSentNotice(plan id: Int64, _ notice: SentNotice) -> StoreWrite<Bool> {
        StoreWrite { db in
            try db.run("INSERT OR IGNORE INTO sent_notification(plan_id, notice, server_id, sent_at) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM plan WHERE id = ?)",
                       [.integer(id), .text(notice.notice), notice.serverID.map { .integer(Int64($0)) } ?? .null,
                        try StoredValues.date(notice.sentAt, field: "notice time"), .integer(id)])
            return db.changes == 1
        }
    }

    /// Sets the server's ID of a notice recorded before the server answered.
    public static func setServerID(_ serverID: UInt32, plan id: Int64, notice: String) -> StoreWrite<Void> {
        StoreWrite { db in
            try db.run("UPDATE sent_notification SET server_id = ? WHERE plan_id = ? AND notice = ?",
                       [.integer(Int64(serverID)), .integer(id), .text(notice)])
        }
    }

    /// Every notice sent for plan `id`, oldest first.
    public static func sentNotices(plan id: Int64) -> StoreRead<[SentNotice]> {
        StoreRead { db in
            try db.query("SELECT notice, server_id, sent_at FROM sent_notification WHERE plan_id = ? ORDER BY sent_at, notice",
                         [.integer(id)]) { row in
                SentNotice(notice: row.string(0), serverID: row.optionalInt64(1).map { UInt32(truncatingIfNeeded: $0) },
                           sentAt: Date(timeIntervalSinceReferenceDate: row.double(2)))
            }
        }
    }
}
