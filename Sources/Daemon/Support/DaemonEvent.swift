import Foundation
import Planner

/// Every event the daemon publishes, one case per kind with its payload: domain values that
/// services publish without knowing the wire. `DaemonEvent+Wire` writes each out once (`kind`,
/// `fields`) for `watch` and the web app's event stream; docs/protocol.md's event table is
/// checked against `allKinds` and `fields` by a test, so the table and the daemon cannot drift apart.
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
    /// A ride of a plan for today moved by 2 minutes or more (a realtime feed); its times are
    /// shown in `timeZone` (the plan's region's).
    case delay(RideEvent, departure: Date, scheduledDeparture: Date?, timeZone: TimeZone, delayS: Int?, movedS: Int)
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
    }

    /// Arriving at or leaving a saved place's geofence.
    public struct Visit: Hashable, Sendable {
        public var place: String
        public var fix: LocationFix
        /// The zone the fix's time is written in (the region's).
        public var timeZone: TimeZone

        public init(place: String, fix: LocationFix, timeZone: TimeZone) {
            self.place = place
            self.fix = fix
            self.timeZone = timeZone
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
        public var leaveAt: Date?
        /// The zone `leaveAt` is shown in (the plan's region's).
        public var timeZone: TimeZone
        /// Whether a notification server showed it.
        public var shown: Bool

        public init(planID: Int64, notice: String, title: String, body: String, leaveAt: Date?, timeZone: TimeZone, shown: Bool) {
            self.planID = planID
            self.notice = notice
            self.title = title
            self.body = body
            self.leaveAt = leaveAt
            self.timeZone = timeZone
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
        /// For `cancelled`: the stop the running trip does not call at (a skipped stop), when the
        /// trip itself runs; nil when the trip is off (`TransitRide.skippedStopName`).
        public var skippedStop: String?

        public init(planID: Int64, segment: Int, line: String, tripID: String, from: String, skippedStop: String? = nil) {
            self.planID = planID
            self.segment = segment
            self.line = line
            self.tripID = tripID
            self.from = from
            self.skippedStop = skippedStop
        }
    }
}
