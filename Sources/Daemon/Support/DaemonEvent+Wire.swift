import Foundation
import WireProtocol

// The events as `watch` and the web app's event stream send them: each kind's name and fields,
// written out once here (services publish `DaemonEvent` values and know no wire).

extension DaemonEvent {
    /// Every kind, in the order of docs/protocol.md's table.
    public static let allKinds = ["plan_recomputed", "pending_update", "plan_deleted", "import_progress", "region_imported",
                                  "region_removed", "region_changed", "place_saved", "location_changed", "arrived", "left",
                                  "feed_expiring", "delay", "cancelled", "alert", "reminder"]

    public var kind: String {
        switch self {
        case .planRecomputed: "plan_recomputed"
        case .pendingUpdate: "pending_update"
        case .planDeleted: "plan_deleted"
        case .importProgress: "import_progress"
        case .regionImported: "region_imported"
        case .regionRemoved: "region_removed"
        case .regionChanged: "region_changed"
        case .placeSaved: "place_saved"
        case .locationChanged: "location_changed"
        case .arrived: "arrived"
        case .left: "left"
        case .feedExpiring: "feed_expiring"
        case .delay: "delay"
        case .cancelled: "cancelled"
        case .alert: "alert"
        case .reminder: "reminder"
        }
    }

    /// The event's fields besides `kind` and `at` (which the hub adds).
    public var fields: [String: JSONValue] {
        func number(_ value: Int64) -> JSONValue { .number(Double(value)) }
        switch self {
        case .planRecomputed(let plan, let generation, let queries):
            return ["plan_id": number(plan), "generation": number(generation), "queries": .number(Double(queries))]
        case .pendingUpdate(let plan, let segments):
            return ["plan_id": number(plan), "segments": .array(segments.map { .number(Double($0)) })]
        case .planDeleted(let plan):
            return ["plan_id": number(plan)]
        case .importProgress(let progress):
            return progress.fields
        case .regionImported(let region, let skipped, let rebuilt):
            var fields: [String: JSONValue] = ["region": .string(region), "skipped": .bool(skipped)]
            if let rebuilt { fields["rebuilt"] = .string(rebuilt) }
            return fields
        case .regionRemoved(let region):
            return ["region": .string(region)]
        case .regionChanged(let region, let timeZone, let realtimeFeeds):
            var fields: [String: JSONValue] = ["region": .string(region)]
            if let timeZone { fields["time_zone"] = .string(timeZone) }
            if let realtimeFeeds { fields["realtime_feeds"] = .number(Double(realtimeFeeds)) }
            return fields
        case .placeSaved(let name):
            return ["name": .string(name)]
        case .locationChanged(let lat, let lon, let source):
            return ["lat": .number(lat), "lon": .number(lon), "source": .string(source)]
        case .arrived(let visit), .left(let visit):
            let time = WireTime.string(from: visit.fix.timestamp, timeZone: visit.timeZone)
            return ["place": .string(visit.place), "time": .string(time),
                    "fix": .object(["lat": .number(visit.fix.coordinate.latitude), "lon": .number(visit.fix.coordinate.longitude),
                                    "accuracy_m": .number(visit.fix.horizontalAccuracy),
                                    "time": .string(time)])]
        case .feedExpiring(let region, let feed, let lastDay, let daysLeft, let message):
            return ["region": .string(region), "feed": .string(feed), "last_day": .string(lastDay),
                    "days_left": .number(Double(daysLeft)), "message": .string(message)]
        case .delay(let ride, let departure, let scheduled, let zone, let delay, let moved):
            func time(_ date: Date) -> JSONValue { .string(WireTime.string(from: date, timeZone: zone)) }
            return ride.fields.merging(["departure": time(departure), "scheduled_departure": scheduled.map(time) ?? .null,
                                        "delay_s": delay.map { .number(Double($0)) } ?? .null,
                                        "moved_s": .number(Double(moved))]) { $1 }
        case .cancelled(let ride):
            return ride.fields.merging(["skipped_stop": ride.skippedStop.map { .string($0) } ?? .null]) { $1 }
        case .alert(let ride, let alertID, let header, let effect):
            return ride.fields.merging(["alert_id": .string(alertID), "header": .string(header), "effect": .string(effect)]) { $1 }
        case .reminder(let reminder):
            return ["plan_id": number(reminder.planID), "notice": .string(reminder.notice), "title": .string(reminder.title),
                    "body": .string(reminder.body), "leave_at": reminder.leaveAt.map { .string(WireTime.string(from: $0, timeZone: reminder.timeZone)) } ?? .null,
                    "shown": .bool(reminder.shown)]
        }
    }
}

extension DaemonEvent.ImportProgress {
    /// The fields of `import_progress`, also the params of `region.import`'s `progress` notification.
    public var fields: [String: JSONValue] {
        ["region": .string(region), "phase": .string(phase), "detail": .string(detail),
         "fraction": fraction.map(JSONValue.number) ?? .null, "overall": overall.map(JSONValue.number) ?? .null]
    }
}

extension DaemonEvent.RideEvent {
    var fields: [String: JSONValue] {
        ["plan_id": .number(Double(planID)), "segment": .number(Double(segment)), "line": .string(line),
         "trip_id": .string(tripID), "from": .string(from)]
    }
}
