import Foundation

extension Raptor {
    /// The walks to and from the stops a search may start and end at, by stop: the least
    /// seconds of each (`Endpoint`s may name a stop twice).
    struct EndWalks {
        var access: [Int32: Int] = [:]
        var egress: [Int32: Int] = [:]

        init(access: [Endpoint], egress: [Endpoint]) {
            for e in access { self.access[e.stop] = min(e.seconds, self.access[e.stop] ?? .max) }
            for e in egress { self.egress[e.stop] = min(e.seconds, self.egress[e.stop] ?? .max) }
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
    /// those that arrive no later. The journey that comes out dominates the one built (no
    /// earlier, no later, the same rides, less walking), so every answer and every option built
    /// from the rounds, and the dominance filter after them, see the nearer stops.
    func boardingTheTripsNearestEnds(_ journey: Journey, first: RideLabel, last: RideLabel, walks: EndWalks,
                                     days: [ServiceDay], overlay: RealtimeOverlay, stopMask: [UInt8]) -> Journey {
        guard !journey.rides.isEmpty else { return journey }
        var nearer = journey
        let leaving = journey.departure
        var best: (label: RideLabel, ride: Ride, walk: Int)?
        for position in 0..<Int(first.alightIndex) where position != Int(first.boardIndex) {
            guard let (stop, flags) = call(of: first, at: position, overlay: overlay), flags & stopMask[Int(stop)] & Timetable.canBoard != 0,
                  let walk = walks.access[stop], walk < best?.walk ?? journey.access.seconds else { continue }
            var label = first
            label.boardIndex = Int32(position)
            let boarded = makeRide(label, days: days, overlay: overlay)
            guard boarded.departure - walk >= leaving else { continue }
            best = (label, boarded, walk)
        }
        var lastLabel = last
        if let best {
            nearer.rides[0] = best.ride
            nearer.access = Endpoint(stop: best.ride.boardStop, seconds: best.walk)
            nearer.departure = best.ride.departure - best.walk
            if nearer.rides.count == 1 { lastLabel = best.label }
        }
        let arriving = journey.arrival
        var bestEnd: (ride: Ride, walk: Int)?
        for position in (Int(lastLabel.boardIndex) + 1)..<patternStopCount(of: lastLabel, overlay: overlay)
        where position != Int(lastLabel.alightIndex) {
            guard let (stop, flags) = call(of: lastLabel, at: position, overlay: overlay),
                  flags & stopMask[Int(stop)] & Timetable.canAlight != 0,
                  let walk = walks.egress[stop], walk < bestEnd?.walk ?? journey.egress.seconds else { continue }
            var label = lastLabel
            label.alightIndex = Int32(position)
            let left = makeRide(label, days: days, overlay: overlay)
            guard left.arrival + walk <= arriving else { continue }
            bestEnd = (left, walk)
        }
        if let bestEnd {
            nearer.rides[nearer.rides.count - 1] = bestEnd.ride
            nearer.egress = Endpoint(stop: bestEnd.ride.alightStop, seconds: bestEnd.walk)
            nearer.arrival = bestEnd.ride.arrival + bestEnd.walk
        }
        return nearer
    }

    /// The stop of `label`'s pattern (a live run's own) at `position` and what it allows there.
    private func call(of label: RideLabel, at position: Int, overlay: RealtimeOverlay) -> (stop: Int32, flags: UInt8)? {
        let live = Int(label.pattern) - timetable.patterns.count
        let pattern = live >= 0 ? overlay.patterns.patterns[live] : timetable.patterns[Int(label.pattern)]
        guard position >= 0, position < Int(pattern.stopCount) else { return nil }
        let table = live >= 0 ? overlay.patterns : staticPatterns
        return (table.stops[Int(pattern.stopsStart) + position], table.flags[Int(pattern.stopsStart) + position])
    }

    /// How many stops `label`'s pattern has.
    private func patternStopCount(of label: RideLabel, overlay: RealtimeOverlay) -> Int {
        let live = Int(label.pattern) - timetable.patterns.count
        return Int(live >= 0 ? overlay.patterns.patterns[live].stopCount : timetable.patterns[Int(label.pattern)].stopCount)
    }
}
