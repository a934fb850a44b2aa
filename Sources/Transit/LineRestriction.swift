import Foundation

/// The trips of one line (a route's short name), to which a line pin's search is kept
/// (`LegQuery.riding`): the service days run only those trips and the realtime overlay scans only
/// their live runs, so RAPTOR finds the line's own journeys, which another line's may dominate in
/// an ordinary search (trial 60 F1: bus 6 at 08:38 was never found from Keskustori to TAYS A,
/// buses 29 and 11 arriving sooner). Built once per query that names a line; an ordinary query
/// has none and pays nothing.
struct LineRestriction {
    let line: String
    /// Per global trip: whether it is of the line.
    private let allowed: [Bool]

    /// Nil when no route of `timetable` has that name: nothing can be ridden.
    init?(line: String, timetable: Timetable) {
        let routes = timetable.routes.map { $0.shortName == line }
        guard routes.contains(true) else { return nil }
        self.line = line
        allowed = timetable.tripRoutes.map { routes[Int($0)] }
    }

    func allows(trip: Int32) -> Bool { allowed.indices.contains(Int(trip)) && allowed[Int(trip)] }

    /// Whether every ride of `journey` is of the line (a live run shares a lane with other
    /// lines' runs when their stops are the same).
    func allows(_ journey: Raptor.Journey) -> Bool { journey.rides.allSatisfy { allows(trip: $0.trip) } }

    /// `day` running only the line's trips.
    func restricting(_ day: Raptor.ServiceDay, timetable: Timetable) -> Raptor.ServiceDay {
        var kept = day
        kept.running = []
        kept.runningStart = [0]
        kept.runningStart.reserveCapacity(day.runningStart.count)
        for (p, pattern) in timetable.patterns.enumerated() {
            for k in Int(day.runningStart[p])..<Int(day.runningStart[p + 1]) where allowed[Int(pattern.firstTrip) + Int(day.running[k])] {
                kept.running.append(day.running[k])
            }
            kept.runningStart.append(Int32(kept.running.count))
        }
        return kept
    }

    /// `overlay` scanning only the live patterns with a run of the line (`allows(_:)` drops a
    /// journey on another line's run of a shared lane).
    func restricting(_ overlay: RealtimeOverlay) -> RealtimeOverlay {
        guard !overlay.liveByBase.isEmpty else { return overlay }
        var kept = overlay
        let patternCount = overlay.liveByBase.count - 1
        kept.liveByBase = [0]
        kept.liveByBase.reserveCapacity(overlay.liveByBase.count)
        kept.liveOfBase = []
        for p in 0..<patternCount {
            for k in Int(overlay.liveByBase[p])..<Int(overlay.liveByBase[p + 1]) {
                let o = Int(overlay.liveOfBase[k]), live = overlay.patterns.patterns[o]
                let runs = Int(live.firstTrip)..<Int(live.firstTrip + live.tripCount)
                if runs.contains(where: { allows(trip: overlay.baseTrips[$0]) }) { kept.liveOfBase.append(Int32(o)) }
            }
            kept.liveByBase.append(Int32(kept.liveOfBase.count))
        }
        return kept
    }
}
