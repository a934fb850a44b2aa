import Foundation
import Planner

extension TransitRouter {
    /// Lays GTFS-Realtime `feeds` over the timetable (which is never changed) and puts the
    /// result in force for the queries that start after; `[]` clears it. Rules in docs/transit.md.
    ///
    /// ```swift
    /// let report = router.applyRealtime([feed], now: clock.now)
    /// report.feeds[0].tripUpdatesRefused  // ["unknown_trip": 2]
    /// ```
    /// - parameter now: the daemon's clock: a trip update without a start date means the run nearest it.
    /// - returns: per feed, what was applied and refused (by reason), and the overlay's memory.
    @discardableResult
    public func applyRealtime(_ feeds: [RealtimeFeed], now: Date) -> RealtimeApplyReport {
        if !isStepFreeView { stepFree.apply(feeds, now: now) }
        guard !feeds.isEmpty else {
            realtime.swap(nil)
            return RealtimeApplyReport()
        }
        let (overlay, report) = RealtimeOverlay.build(timetable: timetable, index: realtime.tripIndex(timetable),
                                                      feeds: feeds, now: now)
        realtime.swap(overlay)
        return report
    }

    /// The ride as the overlay in force sees it: live times (each call's `scheduledTime` the
    /// timetable's) when realtime gives them, `cancelled` when its run is cancelled or its
    /// boarding or alighting stop skipped or closed by a NO_SERVICE alert (then `skippedCall`
    /// says which, the trip running), and the alerts
    /// touching it. A ride the overlay says nothing about comes back with timetable times.
    /// The ride is found by its trip_id, boarding stop and timetable departure; one that is not
    /// in the timetable comes back unchanged.
    public func liveRide(_ ride: TransitRide) -> TransitRide {
        var out = ride
        out.boarding.time = ride.boarding.scheduledTime ?? ride.boarding.time
        out.alighting.time = ride.alighting.scheduledTime ?? ride.alighting.time
        out.boarding.scheduledTime = nil
        out.alighting.scheduledTime = nil
        out.cancelled = false
        out.skippedCall = nil
        out.alerts = []
        out.alertsOmitted = 0
        guard let overlay = realtime.snapshot else { return out }
        let tt = timetable
        let index = realtime.tripIndex(tt)
        guard let found = timetableRun(of: out, trips: index.trips) else { return ride }
        let (run, board, alight) = found
        let pattern = tt.patterns[Int(index.trips.tripPattern[Int(run.trip)])]
        let ref = ServiceDate.referenceInstant(Int(run.day), in: tt.timeZone)
        let scheduled = Int(pattern.timesStart) + (Int(run.trip) - Int(pattern.firstTrip)) * Int(pattern.stopCount)
        var departure = ref + Int(tt.departures[scheduled + board]), arrival = ref + Int(tt.arrivals[scheduled + alight])
        if let live = overlay.liveRuns[run] {
            let p = overlay.patterns.patterns.firstIndex { live >= $0.firstTrip && live < $0.firstTrip + $0.tripCount } ?? 0
            let livePattern = overlay.patterns.patterns[p]
            let times = Int(livePattern.timesStart) + Int(live - livePattern.firstTrip) * Int(livePattern.stopCount)
            departure = ref + Int(overlay.patterns.departures[times + board])
            arrival = ref + Int(overlay.patterns.arrivals[times + alight])
            out.boarding.scheduledTime = out.boarding.time
            out.alighting.scheduledTime = out.alighting.time
            out.boarding.time = Date(timeIntervalSince1970: TimeInterval(departure))
            out.alighting.time = Date(timeIntervalSince1970: TimeInterval(arrival))
            let flags = overlay.patterns.flags
            if flags[Int(livePattern.stopsStart) + board] & Timetable.canBoard == 0 {
                (out.cancelled, out.skippedCall) = (true, .boarding)
            } else if flags[Int(livePattern.stopsStart) + alight] & Timetable.canAlight == 0 {
                (out.cancelled, out.skippedCall) = (true, .alighting)
            }
        }
        let boardStop = tt.patternStops[Int(pattern.stopsStart) + board], alightStop = tt.patternStops[Int(pattern.stopsStart) + alight]
        if let closedAtBoarding = overlay.stopMask(at: departure, stopCount: tt.stops.count), closedAtBoarding[Int(boardStop)] == 0 {
            (out.cancelled, out.skippedCall) = (true, out.skippedCall ?? .boarding)
        }
        if let closedAtAlighting = overlay.stopMask(at: arrival, stopCount: tt.stops.count), closedAtAlighting[Int(alightStop)] == 0 {
            (out.cancelled, out.skippedCall) = (true, out.skippedCall ?? .alighting)
        }
        // The trip itself off: cancelled, whatever its stops.
        if overlay.cancelled.contains(run) { (out.cancelled, out.skippedCall) = (true, nil) }
        let facts = ResolvedAlert.RideFacts(trip: run.trip, pattern: index.trips.tripPattern[Int(run.trip)], day: Int(run.day),
                                            boardStop: boardStop, alightStop: alightStop, departure: departure, arrival: arrival)
        (out.alerts, out.alertsOmitted) = overlay.alerts(touching: facts, in: tt)
        return out
    }
}

extension TransitRouter {
    /// The trip_ids of the timetable's runs on the service day of `date` (frequency runs as
    /// "trip_id@HH:MM:SS"), in timetable order: for building realtime feeds in tests and benchmarks.
    public func runningTripIDs(onServiceDayOf date: Date) -> [String] {
        let day = ServiceDate.localDay(of: date, in: timetable.timeZone)
        let active = timetable.services.map { $0.runs(on: day) }
        return timetable.tripIDs.indices.filter { active[Int(timetable.tripServices[$0])] }.map { timetable.tripIDs[$0] }
    }
}
