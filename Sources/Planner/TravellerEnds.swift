import Foundation

/// Where the traveller really is at the ends of a ride asked between stops inferred for them:
/// the place they walk from to its first stop and the one they walk to from its last. The
/// transit engine measures its access radius from these, not from the stops, so a ride asked
/// from an inferred stop sees the stops a search from the door sees, whichever way it is timed
/// (issue 39: asked from the inferred stop Tohlopinjärvi, a depart-at ride alighted at Pispalan
/// vt 138, 849 m from the destination, which no arrive-by search from the door could choose).
///
/// Where the plan knows the walk between the place and the inferred stop (`originWalk`,
/// `destinationWalk`: the walk the run asked before the ride, at the end the ride is timed
/// from), the ride is searched from (to) the place itself: every stop's walk is the
/// traveller's from (to) the place, and the time asked moves by that walk. Priced to the
/// inferred stop instead, a stop across the road from it cost the walk over the road on top
/// (issue 39, trial 54: by 07:56:30 bus 13 alighting at the other Muroleenkatu, 91 s from the
/// destination, cost 65 s to the inferred Muroleenkatu plus its 83 s, missed the deadline, and
/// the answer left 31 minutes earlier than the depart-at one arriving 07:55:46). The leg found
/// still starts (ends) at the inferred stop: its walk to another stop is shown as what it costs
/// beyond the known walk (`extra`), and the planner then moves the stop to the ride's.
public struct TravellerEnds: Hashable, Sendable {
    /// The place walked from to the ride's first stop; nil when the ride starts where the traveller is.
    public var origin: Coordinate?
    /// The place walked to from the ride's last stop; nil when the ride ends where the traveller goes.
    public var destination: Coordinate?
    /// Seconds of the walk from `origin` to the ride's first stop, when known.
    public var originWalk: TimeInterval?
    /// Seconds of the walk from the ride's last stop to `destination`, when known.
    public var destinationWalk: TimeInterval?
    /// Whether the walk between `origin` (`destination`) and the ride's stop, not given, is one
    /// the run asks next: the router asks it first and searches from (to) the place as if given
    /// (the daemon's `StreetTimedTransit`). A ride past the stop across the road from the
    /// inferred one, whose walk from there was priced over the road, rode to the end of the line
    /// and back (trial 55: bus 10 past Trikookuja at 08:52:45, back there at 09:05:30).
    public var asksOriginWalk = false, asksDestinationWalk = false

    public init(origin: Coordinate? = nil, destination: Coordinate? = nil, originWalk: TimeInterval? = nil,
                destinationWalk: TimeInterval? = nil) {
        self.origin = origin
        self.destination = destination
        self.originWalk = origin == nil ? nil : originWalk
        self.destinationWalk = destination == nil ? nil : destinationWalk
    }

    /// The seconds a walk of `placeWalk` seconds between the traveller's place and a stop costs
    /// beyond `known`, the walk between the place and the inferred stop (`originWalk` or
    /// `destinationWalk`), never below 0. In whole seconds, as the engine times walks: the
    /// known walk rounded down (`wholeSeconds`), so a fraction never costs a ride.
    public static func extra(_ placeWalk: Int, beyond known: TimeInterval) -> Int {
        max(0, placeWalk - wholeSeconds(known))
    }

    /// A known walk as the engine counts it: whole seconds, rounded down.
    public static func wholeSeconds(_ walk: TimeInterval) -> Int { Int(walk.rounded(.down)) }

    /// Whether `stop` is one a ride asked from (to) `end` may board (alight) at, for a traveller
    /// at `place` (nil: `end` is theirs): within `radius` of the place, or, where `end` itself is
    /// farther (an inferred stop beyond the radius, a far train station), no farther than `end`
    /// and the road beside it (`acrossTheRoad`): the stop across the road from the inferred
    /// Trikookuja, 860 m from the destination against its 852 m, was left out, and bus 10 rode
    /// past it to the end of the line and back (trial 55).
    public static func reaches(_ stop: Coordinate, askedFrom end: Coordinate, place: Coordinate?, radius: Double) -> Bool {
        guard let place else { return true }
        return stop.distance(to: place) <= reach(askedFrom: end, place: place, radius: radius)
    }

    /// How far from `place` the stops a ride asked from (to) `end` may use lie (`reaches`): the
    /// radius, or where `end` is farther, `end`'s distance and the road beside it; and where
    /// `nearestStop`, the distance of the place's nearest stop, is known and beyond the radius
    /// too (a place far from every stop), at least the radius beyond that stop, so that the
    /// traveller there has the engine's radius of choice beyond the walk they must make, on
    /// every side, whichever stop the plan walks to now (session 58: the ride asked to the
    /// nearest, Pajukonkatu 877 m from the destination, left out Hervannan jäähalli 978 m from
    /// it, where bus 13 gets to the door in time for a bus 38 leaving 10 minutes later; a
    /// depart-at plan, which had moved its stop to a farther one first, went there).
    /// The transit engine gathers its stops within this of the place, not of `end`.
    public static func reach(askedFrom end: Coordinate, place: Coordinate, radius: Double, nearestStop: Double? = nil) -> Double {
        let endsAt = end.distance(to: place)
        guard endsAt > radius else { return radius }
        if let nearestStop, nearestStop > radius { return max(endsAt + acrossTheRoad, nearestStop + radius) }
        return endsAt + acrossTheRoad
    }

    /// How much farther than an inferred stop beyond the radius another stop may be: a road's width and a crossing.
    public static let acrossTheRoad = 100.0
}

extension RoutePlan {
    /// The traveller's places around transit segment `index`: the place a walk leads from to its
    /// start, and the place a walk leads to from its end, where that start (end) is an inferred
    /// stop. None across a change between rides or a drive to the stop.
    func travellerEnds(ofSegment index: Int) -> TravellerEnds {
        func place(walkedTo stop: Int, from beyond: Int, over segment: Int) -> Coordinate? {
            guard nodes.indices.contains(beyond), nodes[stop].isInferred, modes[segment] == .walk,
                  !nodes[beyond].isInferred else { return nil }
            return nodes[beyond].place.coordinate
        }
        return TravellerEnds(origin: index > 0 ? place(walkedTo: index, from: index - 1, over: index - 1) : nil,
                             destination: index + 1 < modes.count ? place(walkedTo: index + 1, from: index + 2, over: index + 1) : nil)
    }

    /// As `travellerEnds(ofSegment:)`, with the walk at the end `timing` is at (before a
    /// depart-at ride, after an arrive-by one) when `walkAsked` says the run asked it: the ride
    /// is then searched from (to) the place. A walk kept from before keeps its stop (an edit that
    /// only retimes a ride does not move its stops).
    /// A walk the run has yet to ask (empty) is asked first by the router (`asksOriginWalk`,
    /// `asksDestinationWalk`), at either end.
    func travellerEnds(ofSegment index: Int, timedBy timing: LegTiming, walkAsked: (Int) -> Bool) -> TravellerEnds {
        var ends = travellerEnds(ofSegment: index)
        switch timing {
        case .departAt:
            if ends.origin != nil, walkAsked(index - 1) { ends.originWalk = legs[index - 1]?.expectedTravelTime }
        case .arriveBy:
            if ends.destination != nil, walkAsked(index + 1) { ends.destinationWalk = legs[index + 1]?.expectedTravelTime }
        }
        ends.asksOriginWalk = ends.origin != nil && ends.originWalk == nil && legs[index - 1] == nil
        ends.asksDestinationWalk = ends.destination != nil && ends.destinationWalk == nil && legs[index + 1] == nil
        return ends
    }
}
