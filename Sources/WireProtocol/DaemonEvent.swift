/// Every event `watch` sends, one case per kind with its payload, written out once here
/// (`kind`, `fields`). docs/protocol.md's event table is checked against `allKinds` and
/// `fields` by a test, so the table and the daemon cannot drift apart.
public enum DaemonEvent: Hashable, Sendable {
    case planRecomputed(planID: Int64, generation: Int64, queries: Int)
    /// Segments numbered from 1.
    case pendingUpdate(planID: Int64, segments: [Int])
    case planDeleted(planID: Int64)
    case importProgress(ImportProgress)
    /// `rebuilt` (`timetable`, `everything`) after `region.update`, nil after `region.import`.
    case regionImported(region: String, skipped: Bool, rebuilt: String?)
    case regionRemoved(region: String)
    /// `region.set` changed the zone or the realtime feeds (how many there are now).
    case regionChanged(region: String, timeZone: String?, realtimeFeeds: Int?)
    case placeSaved(name: String)
    /// Only for `location.set`: gpsd's fixes are not announced one by one.
    case locationChanged(lat: Double, lon: Double, source: String)
    case arrived(Visit)
    case left(Visit)
    case feedExpiring(region: String, feed: String, lastDay: String, daysLeft: Int, message: String)
    /// A ride of a plan for today moved by 2 minutes or more (a realtime feed).
    case delay(RideEvent, departure: String, scheduledDeparture: String?, delayS: Int?, movedS: Int)
    /// A ride the plan counts on no longer runs.
    case cancelled(RideEvent)
    /// A service alert newly touches a ride of the plan.
    case alert(RideEvent, alertID: String, header: String, effect: String)
    /// A desktop notification for a plan: a reminder to leave or a change notice. It comes
    /// whether or not a notification server showed it (`shown`).
    case reminder(Reminder)

    /// An import's progress (also the `progress` notification of `region.import`).
    public struct ImportProgress: Hashable, Sendable {
        public var region: String
        public var phase: String
        public var detail: String
        public var fraction: Double?
        public var overall: Double?

        public init(region: String, phase: String, detail: String, fraction: Double?, overall: Double?) {
            self.region = region
            self.phase = phase
            self.detail = detail
            self.fraction = fraction
            self.overall = overall
        }

        public var fields: [String: JSONValue] {
            ["region": .string(region), "phase": .string(phase), "detail": .string(detail),
             "fraction": fraction.map(JSONValue.number) ?? .null, "overall": overall.map(JSONValue.number) ?? .null]
        }
    }

    /// Arriving at or leaving a saved place's geofence.
    public struct Visit: Hashable, Sendable {
        public var place: String
        /// The fix's time.
        public var time: String
        public var fix: FixDocument

        public init(place: String, time: String, fix: FixDocument) {
            self.place = place
            self.time = time
            self.fix = fix
        }
    }

    /// A reminder or change notice as the desktop notification said it.
    public struct Reminder: Hashable, Sendable {
        public var planID: Int64
        /// `leave` (time to leave; again after "In 5 min"), or the change: `pending_update`,
        /// `missed_connection`, `delay`, `cancelled`.
        public var notice: String
        public var title: String
        public var body: String
        /// When to leave (`leave` only).
        public var leaveAt: String?
        /// Whether a notification server showed it.
        public var shown: Bool

        public init(planID: Int64, notice: String, title: String, body: String, leaveAt: String?, shown: Bool) {
            self.planID = planID
            self.notice = notice
            self.title = title
            self.body = body
            self.leaveAt = leaveAt
            self.shown = shown
        }
    }

    /// Which ride of which plan a live-data event is about.
    public struct RideEvent: Hashable, Sendable {
        public var planID: Int64
        /// Numbered from 1.
        public var segment: Int
        public var line: String
        public var tripID: String
        /// Where the ride boards.
        public var from: String

        public init(planID: Int64, segment: Int, line: String, tripID: String, from: String) {
            self.planID = planID
            self.segment = segment
            self.line = line
            self.tripID = tripID
            self.from = from
        }

        var fields: [String: JSONValue] {
            ["plan_id": .number(Double(planID)), "segment": .number(Double(segment)), "line": .string(line),
             "trip_id": .string(tripID), "from": .string(from)]
        }
    }

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
            return ["place": .string(visit.place), "time": .string(visit.time),
                    "fix": .object(["lat": .number(visit.fix.lat), "lon": .number(visit.fix.lon),
                                    "accuracy_m": .number(visit.fix.accuracyM),
                                    "time": .string(visit.fix.time)])]
        case .feedExpiring(let region, let feed, let lastDay, let daysLeft, let message):
            return ["region": .string(region), "feed": .string(feed), "last_day": .string(lastDay),
                    "days_left": .number(Double(daysLeft)), "message": .string(message)]
        case .delay(let ride, let departure, let scheduled, let delay, let moved):
            return ride.fields.merging(["departure": .string(departure), "scheduled_departure": scheduled.map(JSONValue.string) ?? .null,
                                        "delay_s": delay.map { .number(Double($0)) } ?? .null,
                                        "moved_s": .number(Double(moved))]) { $1 }
        case .cancelled(let ride):
            return ride.fields
        case .alert(let ride, let alertID, let header, let effect):
            return ride.fields.merging(["alert_id": .string(alertID), "header": .string(header), "effect": .string(effect)]) { $1 }
        case .reminder(let reminder):
            return ["plan_id": number(reminder.planID), "notice": .string(reminder.notice), "title": .string(reminder.title),
                    "body": .string(reminder.body), "leave_at": reminder.leaveAt.map(JSONValue.string) ?? .null,
                    "shown": .bool(reminder.shown)]
        }
    }
}
