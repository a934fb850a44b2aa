import Foundation

/// The pins around a segment that a leg chosen for it must keep (`plan choose`, issue 39): the
/// traveller cannot take a ride arriving 08:17 and also leave the next node on a walk pinned
/// to leave 08:10, nor take a ride leaving before they can get to it from the pin before it.
/// Both go through the legs between as they stand (their travel times, the stays at their
/// nodes), so they hold in an arrive-by plan too, where `earliestArrivals` knows no start.
extension RoutePlan {
    /// A pin that a leg for some segment would not keep.
    public struct PinNotKept: Equatable, Sendable {
        /// The pinned segment.
        public var segment: Int
        /// A pin after: when the traveller, having taken the leg, can leave the pinned
        /// segment's start. A pin before: when, coming from the pinned leg, they can leave the
        /// leg's start.
        public var ready: Date
    }

    /// Why the traveller could not take `option` for segment `index` and keep the pins around
    /// it: it arrives too late for the next pinned segment, or (else) too late for an arrive-by
    /// plan's "arrive by" time (trial 56 finding 9: chosen, it was then flagged late), or (else)
    /// leaves before they can get to it from the pinned segment before. Nil when it keeps them.
    /// An option without times (a walk, a drive) leaves when the segment does now
    /// (`departureTimes` from `now`). A pin (an arrival) the plan's own leg already breaks (it
    /// gave way, trial 51) is no reason to refuse one.
    public func pinConflict(takingLeg option: RouteLeg, forSegment index: Int, now: Date) -> PinConflict? {
        func times(_ leg: RouteLeg) -> (leaves: Date?, arrives: Date?) {
            let leaves = leg.departure ?? departureTimes(startingAt: now)[index]
            return (leaves, leg.arrival ?? leaves?.addingTimeInterval(leg.expectedTravelTime))
        }
        let (leaves, arrives) = times(option), current = legs[index].map(times)
        if let arrives, let missed = pinMissed(afterSegment: index, arrivingAt: arrives),
           current?.arrives.flatMap({ pinMissed(afterSegment: index, arrivingAt: $0) }) == nil {
            return .arrivesTooLate(missed, arriving: arrives)
        }
        if let arrives, let late = arrivalMissed(afterSegment: index, arrivingAt: arrives),
           current?.arrives.flatMap({ arrivalMissed(afterSegment: index, arrivingAt: $0) }) == nil {
            return .arrivesAfterArriveBy(late, arriving: arrives)
        }
        if let leaves, let early = pinTooLate(beforeSegment: index, leaving: leaves),
           current?.leaves.flatMap({ pinTooLate(beforeSegment: index, leaving: $0) }) == nil {
            return .leavesTooEarly(early, leaving: leaves)
        }
        return nil
    }

    /// How a leg would break a pin around its segment (`pinConflict`).
    public enum PinConflict: Equatable, Sendable {
        /// It arrives (at the date given) too late to leave on the next pinned segment.
        case arrivesTooLate(PinNotKept, arriving: Date)
        /// It leaves (at the date given) before the traveller can be there from the pin before.
        case leavesTooEarly(PinNotKept, leaving: Date)
        /// It arrives (at the date given) too late for the plan's "arrive by" time.
        case arrivesAfterArriveBy(ArrivalNotKept, arriving: Date)
    }

    /// An arrive-by plan's "arrive by" time that a leg for some segment would not keep.
    public struct ArrivalNotKept: Equatable, Sendable {
        /// The plan's "arrive by" time.
        public var arriveBy: Date
        /// When the traveller, having taken the leg, gets to the destination at the earliest.
        public var reached: Date
    }

    /// In an arrive-by plan, whether a leg arriving at segment `index`'s end at `arrival` gets the
    /// traveller to the destination (through the legs after, as `pinMissed` goes to a pin) after
    /// the plan's "arrive by" time. Nil when in time, in a plan of another kind, or when a leg
    /// after is missing (nothing to judge by).
    public func arrivalMissed(afterSegment index: Int, arrivingAt arrival: Date) -> ArrivalNotKept? {
        guard case .arriveBy(let arriveBy) = timePreference,
              let reached = ready(atNode: nodes.count - 1, from: index + 1, arrivingAt: arrival),
              reached > arriveBy.addingTimeInterval(Self.connectionSlack) else { return nil }
        return ArrivalNotKept(arriveBy: arriveBy, reached: reached)
    }

    /// The first pin after segment `index` that a leg arriving at its end at `arrival` misses:
    /// the traveller gets to the pinned segment's start (through the legs between, their
    /// stays, and that node's own stay) later than it is pinned to leave. Nil when it is kept,
    /// when no segment after is pinned, or when a leg between is missing (nothing to judge by).
    public func pinMissed(afterSegment index: Int, arrivingAt arrival: Date) -> PinNotKept? {
        guard let next = pinnedSegmentIndices.first(where: { $0 > index }), let departure = pinnedDeparture(ofSegment: next),
              let ready = ready(atNode: next, from: index + 1, arrivingAt: arrival),
              departure < ready.addingTimeInterval(-Self.connectionSlack) else { return nil }
        return PinNotKept(segment: next, ready: ready)
    }

    /// The last pin before segment `index` that a leg leaving its start at `departure` leaves
    /// too early for: coming from the pinned leg's arrival (through the legs between and their
    /// stays), the traveller can leave that start only later. Nil when none is pinned before,
    /// or a leg between (or the pinned one) is missing.
    public func pinTooLate(beforeSegment index: Int, leaving departure: Date) -> PinNotKept? {
        guard let previous = pinnedSegmentIndices.last(where: { $0 < index }), let pinned = legs[previous],
              let arrived = pinned.arrival ?? pinnedDeparture(ofSegment: previous)?.addingTimeInterval(pinned.expectedTravelTime),
              let ready = ready(atNode: index, from: previous + 1, arrivingAt: arrived),
              departure < ready.addingTimeInterval(-Self.connectionSlack) else { return nil }
        return PinNotKept(segment: previous, ready: ready)
    }

    /// When the traveller, at node `start` at `arrival`, can leave node `end` at the earliest
    /// through the legs between: a transit leg at its own time when it still leaves after they
    /// get to it, else at its travel time from then (a later ride takes no less); each node's
    /// stay holds them. Nil when a leg between is missing.
    private func ready(atNode end: Int, from start: Int, arrivingAt arrival: Date) -> Date? {
        var time = arrival
        for between in start..<end {
            guard let leg = legs[between] else { return nil }
            let ready = nodes[between].leaving(arrivedAt: time)
            if let leaves = leg.departure, let arrives = leg.arrival, leaves >= ready {
                time = arrives
            } else {
                time = ready.addingTimeInterval(leg.expectedTravelTime)
            }
        }
        return nodes[end].leaving(arrivedAt: time)
    }
}
