import Foundation

extension Raptor {
    /// The walks to and from the stops a search may start and end at, read by stop from the
    /// search's own arrays (nothing is built per search): the access walk to a stop, the egress
    /// walk from it; nil at a stop that is no end. A start stop has the endpoint for parent in
    /// round 0 (its walk is in `start`, scanned then); a target stop has its `targetSeconds`.
    struct EndWalks {
        let parents: UnsafeMutablePointer<Parent>
        let start: [Endpoint]
        let targetSeconds: UnsafeMutablePointer<Int>
        /// Depart-at: the search starts at the access walks; arrive-by at the egress walks.
        let startIsAccess: Bool

        func access(_ stop: Int32) -> Int? { startIsAccess ? fromStart(stop) : fromTarget(stop) }
        func egress(_ stop: Int32) -> Int? { startIsAccess ? fromTarget(stop) : fromStart(stop) }

        private func fromStart(_ stop: Int32) -> Int? {
            guard case .endpoint = parents[Int(stop)] else { return nil }
            var least: Int?
            for e in start where e.stop == stop { least = min(least ?? e.seconds, e.seconds) }
            return least
        }

        private func fromTarget(_ stop: Int32) -> Int? {
            let seconds = targetSeconds[Int(stop)]
            return seconds >= 0 ? seconds : nil
        }
    }

    /// `journey` with its first ride boarded, and its last left, at the stops of their own trips
    /// nearest the ends (issue 39, docs/transit.md "Each ride at the stops of its trip nearest
    /// the ends"). The rounds board a vehicle at the first stop of its pattern where they can
    /// catch it, so a journey they build may walk 635 m to Hervantakeskus E for bus 6 at 07:13:30
    /// although the same trip calls at Opiskelija C, 166 m from the origin, at 07:14:30. The
    /// first ride is boarded instead at the call of its trip, before where it alights, with the
    /// shortest walk from the origin among those that leave the origin no earlier than the
    /// journey does (so it is caught whenever the journey's own stop is); the last ride is left
    /// at the call, after where it boards, with the shortest walk to the destination among
    /// those that arrive no later, or where the journeys are answers (`deadline` given) in the same
    /// shown minute (arrivals in one shown minute are one arrival, the dominance rule), never past
    /// `deadline`. The journey that comes out dominates the one built (no earlier, arriving in no
    /// later minute, the same rides, less walking), so every answer and every option built from
    /// the rounds, and the dominance filter after them, see the nearer stops (session 58: bus 6
    /// from Tays C to Kaleva A left at Hippos C, 624 m away, arriving 08:32:14, where `plan
    /// alternatives` left it at the stop 473 m away, arriving 08:32:40).
    func boardingTheTripsNearestEnds(_ journey: Journey, first: RideLabel, last: RideLabel, walks: EndWalks,
                                     days: [ServiceDay], overlay: RealtimeOverlay, stopMask: [UInt8],
                                     arrivingBy deadline: Int = .min) -> Journey {
        var nearer = journey
        var lastLabel = last
        // No walk is shorter than none (a journey from a stop): only a walk is looked at.
        if journey.access.seconds > 0 {
            let calls = TripCalls(of: first, in: self, days: days, overlay: overlay)
            var best: (position: Int, walk: Int)?
            for position in 0..<Int(first.alightIndex) where position != Int(first.boardIndex) {
                let stop = calls.stop(position)
                guard let walk = walks.access(stop), walk < best?.walk ?? journey.access.seconds,
                      calls.flags(position) & stopMask[Int(stop)] & Timetable.canBoard != 0,
                      calls.departure(position) - walk >= journey.departure else { continue }
                best = (position, walk)
            }
            if let best {
                var label = first
                label.boardIndex = Int32(best.position)
                let ride = makeRide(label, days: days, overlay: overlay)
                nearer.rides[0] = ride
                nearer.access = Endpoint(stop: ride.boardStop, seconds: best.walk)
                nearer.departure = ride.departure - best.walk
                if nearer.rides.count == 1 { lastLabel = label }
            }
        }
        if journey.egress.seconds > 0 {
            let calls = TripCalls(of: lastLabel, in: self, days: days, overlay: overlay)
            let arrivingBy = min(JourneyChoice.endOfShownMinute(journey.arrival), max(deadline, journey.arrival))
            var best: (position: Int, walk: Int)?
            for position in (Int(lastLabel.boardIndex) + 1)..<calls.count where position != Int(lastLabel.alightIndex) {
                let stop = calls.stop(position)
                guard let walk = walks.egress(stop), walk < best?.walk ?? journey.egress.seconds,
                      calls.flags(position) & stopMask[Int(stop)] & Timetable.canAlight != 0,
                      calls.arrival(position) + walk <= arrivingBy else { continue }
                best = (position, walk)
            }
            if let best {
                var label = lastLabel
                label.alightIndex = Int32(best.position)
                let ride = makeRide(label, days: days, overlay: overlay)
                nearer.rides[nearer.rides.count - 1] = ride
                nearer.egress = Endpoint(stop: ride.alightStop, seconds: best.walk)
                nearer.arrival = ride.arrival + best.walk
            }
        }
        return nearer
    }

    /// The calls of the run a ride label stands for (a live run's own), read where the rounds
    /// read them: its stops, what each allows, and its times as `makeRide` gives them.
    private struct TripCalls {
        let table: PatternTable
        let stopsStart: Int
        let timesStart: Int
        let reference: Int
        let count: Int

        init(of label: RideLabel, in engine: Raptor, days: [ServiceDay], overlay: RealtimeOverlay) {
            let live = Int(label.pattern) - engine.timetable.patterns.count
            let pattern = live >= 0 ? overlay.patterns.patterns[live] : engine.timetable.patterns[Int(label.pattern)]
            table = live >= 0 ? overlay.patterns : engine.staticPatterns
            count = Int(pattern.stopCount)
            stopsStart = Int(pattern.stopsStart)
            timesStart = Int(pattern.timesStart) + Int(label.trip) * count
            reference = days[Int(label.day)].reference
        }

        func stop(_ position: Int) -> Int32 { table.stops[stopsStart + position] }
        func flags(_ position: Int) -> UInt8 { table.flags[stopsStart + position] }
        func departure(_ position: Int) -> Int { reference + Int(table.departures[timesStart + position]) }
        func arrival(_ position: Int) -> Int { reference + Int(table.arrivals[timesStart + position]) }
    }
}
