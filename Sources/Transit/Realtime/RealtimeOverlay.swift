import Foundation
import Planner

/// GTFS-Realtime laid over a timetable, which it never changes: the live runs of timetable
/// trips (grouped into their own non-overtaking patterns, each for one service day), the runs
/// that no longer go as timetabled (cancelled or replaced by a live run), and the alerts.
///
/// RAPTOR scans the timetable's patterns with those runs taken out of their service day, plus
/// the overlay's patterns on their day only; so a query on another day sees no difference.
/// Built by `RealtimeOverlay.build` (`RealtimeOverlayBuilder.swift`), a pure function.
struct RealtimeOverlay: Sendable {
    /// One run of a timetable trip: the trip's global index and its service day.
    struct Run: Hashable, Sendable {
        var trip: Int32
        var day: Int32
    }

    /// The live runs' patterns; a pattern's trips are of one timetable pattern and one day.
    var patterns = PatternTable()
    /// Per overlay pattern: its service day and the timetable pattern its trips belong to.
    var patternDays: [Int32] = []
    var basePatterns: [Int32] = []
    /// Per overlay trip (global index in `patterns`): the timetable trip it is a run of.
    var baseTrips: [Int32] = []
    /// Per timetable pattern p: its live patterns are `liveOfBase[liveByBase[p]..<liveByBase[p + 1]]`
    /// (RAPTOR scans them when it scans p: they call at the same stops). Empty without live runs.
    var liveByBase: [Int32] = []
    var liveOfBase: [Int32] = []
    /// 0, 1, 2, …: an overlay pattern runs all its trips on its day.
    var identity: [Int32] = []
    /// Timetable run → overlay trip.
    var liveRuns: [Run: Int32] = [:]
    var cancelled: Set<Run> = []
    /// The timetable's service days the overlay changes, without the runs it cancels or replaces.
    var serviceDays: [Int: Raptor.ServiceDay] = [:]
    var alerts: [ResolvedAlert] = []

    var isEmpty: Bool { liveRuns.isEmpty && cancelled.isEmpty && alerts.isEmpty }

    /// The service days a query around `day` scans: the cached ones, with the overlay's in their place.
    func days(replacing days: [Raptor.ServiceDay]) -> [Raptor.ServiceDay] {
        serviceDays.isEmpty ? days : days.map { serviceDays[$0.day] ?? $0 }
    }

    /// Per stop: 0 where a NO_SERVICE alert active at `instant` closes the stop, all bits elsewhere;
    /// nil when no stop is closed.
    func stopMask(at instant: Int, stopCount: Int) -> [UInt8]? {
        var mask: [UInt8]? = nil
        for alert in alerts where alert.isNoService && alert.isActive(from: instant, to: instant) {
            for target in alert.targets where target.isStopOnly {
                for stop in target.stops ?? [] {
                    if mask == nil { mask = [UInt8](repeating: 0xFF, count: stopCount) }
                    mask?[Int(stop)] = 0
                }
            }
        }
        return mask
    }

    /// The alerts touching a ride and active while it runs: each text once (the same notice in
    /// several feeds is one), NO_SERVICE first, then in feed order, at most
    /// `ServiceAlert.maximumPerRide`; `omitted` counts the rest.
    func alerts(touching ride: ResolvedAlert.RideFacts, in timetable: Timetable) -> (shown: [ServiceAlert], omitted: Int) {
        var distinct: [ServiceAlert] = []
        var seen: Set<ServiceAlert> = []
        for resolved in alerts where resolved.isActive(from: ride.departure, to: ride.arrival) && resolved.touches(ride, in: timetable) {
            var key = resolved.alert
            key.id = ""
            if seen.insert(key).inserted { distinct.append(resolved.alert) }
        }
        let ordered = distinct.filter { $0.effect == "no_service" } + distinct.filter { $0.effect != "no_service" }
        let shown = Array(ordered.prefix(ServiceAlert.maximumPerRide))
        return (shown, ordered.count - shown.count)
    }

    /// Approximate bytes held.
    var memoryBytes: Int {
        func a<T>(_ array: [T]) -> Int { array.count * MemoryLayout<T>.stride }
        var total = patterns.memoryBytes + a(patternDays) + a(basePatterns) + a(baseTrips) + a(identity)
            + a(liveByBase) + a(liveOfBase)
        total += liveRuns.count * (MemoryLayout<Run>.stride + 4) * 2 + cancelled.count * MemoryLayout<Run>.stride * 2
        total += serviceDays.values.reduce(0) { $0 + a($1.running) + a($1.runningStart) }
        total += alerts.reduce(0) { total, alert in
            total + 256 + alert.alert.header.utf8.count + (alert.alert.description?.utf8.count ?? 0)
                + alert.targets.reduce(0) { $0 + 64 + 4 * (($1.stops?.count ?? 0) + ($1.trips?.count ?? 0)) }
        }
        return total
    }
}
