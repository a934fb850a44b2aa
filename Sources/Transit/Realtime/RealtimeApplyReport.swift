import Foundation

/// What applying GTFS-Realtime feeds did, per feed (in the order given): what was applied
/// and what was refused, by reason (`RealtimeRefusal`), plus the overlay's memory.
public struct RealtimeApplyReport: Hashable, Sendable {
    public struct Feed: Hashable, Sendable {
        /// Trip updates whose live times were applied.
        public var tripUpdatesApplied = 0
        /// Trip updates that cancel a trip's run.
        public var tripsCancelled = 0
        /// Trip updates refused, by `RealtimeRefusal` code.
        public var tripUpdatesRefused: [String: Int] = [:]
        public var alertsApplied = 0
        /// Alerts refused, by `RealtimeRefusal` code.
        public var alertsRefused: [String: Int] = [:]
        /// Vehicle positions read and ignored.
        public var vehiclePositionsIgnored = 0

        public init() {}

        /// Every trip update and alert of the feed named nothing of this timetable (and there was
        /// at least one): most likely the feed of another region.
        public var touchesNothingHere: Bool {
            let unknown = ["unknown_trip", "unknown_stop", "unknown_entity"]
            let refusedUnknown = unknown.reduce(0) { $0 + (tripUpdatesRefused[$1] ?? 0) + (alertsRefused[$1] ?? 0) }
            return refusedUnknown > 0 && tripUpdatesApplied + tripsCancelled + alertsApplied == 0
                && refusedUnknown == tripUpdatesRefused.values.reduce(0, +) + alertsRefused.values.reduce(0, +)
        }

        mutating func refuseTripUpdate(_ reason: RealtimeRefusal) { tripUpdatesRefused[reason.rawValue, default: 0] += 1 }
        mutating func refuseAlert(_ reason: RealtimeRefusal) { alertsRefused[reason.rawValue, default: 0] += 1 }
    }

    public var feeds: [Feed]
    /// Approximate bytes the overlay holds (live trips, their patterns, the service days it changes, alerts).
    public var overlayMemoryBytes: Int

    public init(feeds: [Feed] = [], overlayMemoryBytes: Int = 0) {
        self.feeds = feeds
        self.overlayMemoryBytes = overlayMemoryBytes
    }
}

/// Why a trip update or alert was not applied; the raw value is the stable code reports count by.
public enum RealtimeRefusal: String, Error, Hashable, Sendable, CaseIterable {
    /// No trip of the timetable matches (trip_id, or route + direction + start time), or it does not run that day.
    case unknownTrip = "unknown_trip"
    /// The trip fits trips of more than one of the region's feeds (they share its trip_id and
    /// start time): it is not applied to a guess.
    case ambiguousTrip = "ambiguous_trip"
    /// A stop time update names a stop (stop_sequence or stop_id) the trip does not call at.
    case unknownStop = "unknown_stop"
    /// Neither the update nor any of its stops gives a time or delay.
    case noTimes = "no_times"
    /// Given times go backwards along the trip (propagated times are only clamped).
    case timesBackwards = "times_backwards"
    /// A time more than a day away from the timetable's (a wrong date or unit).
    case timesOutOfRange = "times_out_of_range"
    /// The feed is DIFFERENTIAL; only FULL_DATASET feeds are applied.
    case differentialFeed = "differential_feed"
    /// ADDED, REPLACEMENT, DUPLICATED, UNSCHEDULED or NEW trips, not applied.
    case unsupported
    /// Another update already gave this run of this trip.
    case duplicateTrip = "duplicate_trip"
    /// An alert none of whose informed entities is an agency, route, trip or stop of this timetable.
    case unknownEntity = "unknown_entity"
}
