import Foundation
import Planner

extension PlanRepository {
    /// A plan as the repository answers it: read, created or changed, at its generation.
    public struct Outcome: Sendable {
        public var id: Int64
        public var plan: RoutePlan
        public var title: String
        public var generation: Int64
        public var failures: [Int: RoutingError]
        /// Pins of the plan before the edit that the edited plan no longer has.
        public var removedPins: [RemovedPin] = []
        /// The places the request typed as text, with how each matched (for the answer only).
        public var matched: [ResolvedPlace] = []
        /// Why the segments an insert made have the modes it chose (for the answer only).
        public var modeNotes: [String] = []
    }


    /// A pin an edit removed, with the names of its segment's ends in the plan before the edit.
    public struct RemovedPin: Sendable, Equatable {
        public var from: String
        public var to: String
        public var departure: Date

        /// The pins of `before` that `after` no longer has, in segment order. A pin is the same
        /// trips (without trips, the same departure) wherever its segment is keyed: a location
        /// fix moves a current-location node and so re-keys the pins beside it without removing
        /// them, and `plan mode … transit` on the walk to a pinned ride's stop joins the walk to
        /// the ride, which then leaves with the walk. A new pin the user put on the same segment
        /// (pin, choose, accept) replaces it, not removes it; so does one on the segment with an
        /// end kept, the other the stop its new ride boards (alights) at: `plan accept` of tram 3
        /// from Koskipuisto B for bus 6 missed at Koskipuisto D read "pin removed" (trial 53).
        static func between(_ before: RoutePlan, _ after: RoutePlan) -> [RemovedPin] {
            let kept = after.pins.values
            let newPins = Set(after.pins.keys).subtracting(before.pins.keys)
            return before.pinnedSegmentIndices.compactMap { index in
                guard let pin = before.pin(ofSegment: index), after.pins[pin.segment] == nil,
                      !newPins.contains(where: { $0.fromID == pin.segment.fromID || $0.toID == pin.segment.toID }),
                      !kept.contains(where: { $0.tripIDs == pin.tripIDs && (!pin.tripIDs.isEmpty || $0.departure == pin.departure) })
                else { return nil }
                return RemovedPin(from: before.nodes[index].place.name, to: before.nodes[index + 1].place.name,
                                  departure: pin.shownDeparture)
            }
        }
    }

}
