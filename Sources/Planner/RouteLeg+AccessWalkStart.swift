import Foundation

/// When a ride's access walk starts. Timed back from the ride, it starts when the traveller must
/// leave to catch it; a pinned ride whose stop an edit put out of reach (`reachingItsOwnStops`:
/// a 10 km walk joined to it) was then shown walking at 07:02 in a plan leaving at 08:00 (trial 49
/// finding 1). No leg is shown before the traveller can be there: a missed ride's walk starts
/// when they can leave, and the ride is still the one missed, by `latestLeaving`.
extension RouteLeg {
    /// The latest the traveller may leave the leg's start and still board its first ride: that
    /// ride's boarding less the access walks before it. The departure for a leg without rides.
    public var latestLeaving: Date? {
        guard mode == .transit, let first = rides.first else { return departure }
        let walking = walks.filter { $0.kind == .access }.reduce(0) { $0 + $1.duration }
        return first.boarding.time.addingTimeInterval(-walking)
    }

    /// Whether the access walk starts after `latestLeaving`: the walk gets to the stop after the
    /// ride has left (a missed ride shown from when the traveller can leave).
    public var walkMissesItsRide: Bool {
        guard let departure, let latest = latestLeaving else { return false }
        return departure > latest.addingTimeInterval(RoutePlan.connectionSlack)
    }

    /// This transit leg with its access walks starting at `start` (its rides as they are): the
    /// departure moves, the arrival stays. A leg without rides or times as it is.
    func accessWalksLeaving(at start: Date) -> RouteLeg {
        guard mode == .transit, !rides.isEmpty, let departure else { return self }
        let shift = start.timeIntervalSince(departure)
        var leg = self
        for index in leg.walks.indices where leg.walks[index].kind == .access {
            leg.walks[index].start = leg.walks[index].start.addingTimeInterval(shift)
        }
        leg.departure = start
        return leg
    }
}
