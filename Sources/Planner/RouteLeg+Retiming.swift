import Foundation

extension RouteLeg {
    /// A leg without times of its own (walk, car) leaving at `departure`; a timed leg as it is.
    public func timed(leaving departure: Date) -> RouteLeg {
        guard self.departure == nil, arrival == nil else { return self }
        var leg = self
        leg.departure = departure
        leg.arrival = departure.addingTimeInterval(expectedTravelTime)
        return leg
    }

    /// The leg as a router gives it: a walk, car or bike leg has no times of its own (its pin or
    /// the legs before it time it), so times `timed(leaving:)` gave it go; a transit leg as it is.
    public var withoutTimesOfItsOwn: RouteLeg {
        guard mode != .transit else { return self }
        var leg = self
        leg.departure = nil
        leg.arrival = nil
        return leg
    }

    /// Whether a realtime feed gave any of the rides' times.
    public var hasLiveTimes: Bool { rides.contains { $0.boarding.isRealtime || $0.alighting.isRealtime } }

    /// Whether a realtime feed cancelled one of the rides (or skips where it boards or alights).
    public var hasCancelledRide: Bool { rides.contains(where: \.cancelled) }

    /// The same journey walked `ratio` times as long (another walking pace): the walks to the
    /// first stop, between two stops and from the last scale, and the leg's times follow its
    /// rides (`retimed`); a change at one stop keeps its time (the minimum change time, not a
    /// walk). Not rounded, so that pace changes back and forth give the walks back. Other legs as
    /// they are. A change it makes too long shows in `changesHold`.
    public func walked(timesAsLong ratio: Double) -> RouteLeg {
        guard mode == .transit, !rides.isEmpty else { return self }
        var leg = self
        for index in leg.walks.indices where leg.walks[index].kind != .transfer || leg.walks[index].distance > 0 {
            leg.walks[index].duration *= ratio
        }
        return leg.retimed(rides: rides)
    }

    /// The same journey with `rides` (the same trips, their times as a realtime feed gives them):
    /// the walks move with the rides — the access walk ends at the first boarding, a change starts
    /// when its ride arrives, the egress walk starts at the last alighting — and the leg's
    /// departure, arrival and travel time follow. Rides in another number than the leg's leave
    /// it as it is.
    public func retimed(rides newRides: [TransitRide]) -> RouteLeg {
        guard mode == .transit, newRides.count == rides.count, !newRides.isEmpty else { return self }
        var leg = self
        leg.rides = newRides
        var changes = 0
        for index in leg.walks.indices {
            switch leg.walks[index].kind {
            case .access:
                leg.walks[index].start = newRides[0].boarding.time.addingTimeInterval(-leg.walks[index].duration)
            case .transfer:
                let arriving = min(changes, newRides.count - 1)
                leg.walks[index].start = newRides[arriving].alighting.time
                changes += 1
            case .egress:
                leg.walks[index].start = newRides[newRides.count - 1].alighting.time
            }
        }
        let accessSeconds = leg.walks.first { $0.kind == .access }?.duration ?? 0
        let egressSeconds = leg.walks.first { $0.kind == .egress }?.duration ?? 0
        let departure = newRides[0].boarding.time.addingTimeInterval(-accessSeconds)
        let arrival = newRides[newRides.count - 1].alighting.time.addingTimeInterval(egressSeconds)
        leg.departure = departure
        leg.arrival = arrival
        leg.expectedTravelTime = arrival.timeIntervalSince(departure)
        return leg
    }
}
