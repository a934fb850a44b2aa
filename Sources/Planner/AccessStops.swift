import Foundation

/// The stops near a place and the rule that picks the one a traveller walks to from it, as a
/// new transit plan picks its boarding and alighting stops: the nearest, or for a long trip the
/// nearest train station among them; none when the place already is a stop (or within
/// `endIsStopMetres` of one). A value, so an edit can choose the stops again without asking
/// the routing engine (the daemon asks `Planner.accessStops(around:)` before the edit).
public struct AccessStops: Sendable, Equatable {
    /// The place the stops are around.
    public var place: Place
    /// Nearest first; empty when the place is a stop itself.
    public var stops: [Place]
    var longDistanceMetres: Double
    var endIsStopMetres: Double
    var rideReachMetres: Double

    init(place: Place, stops: [Place], configuration: PlannerConfiguration) {
        self.place = place
        self.stops = stops
        longDistanceMetres = configuration.longDistanceMetres
        endIsStopMetres = configuration.endIsStopMetres
        rideReachMetres = configuration.rideReachRadius
    }

    /// The stop to walk to from `place` for a ride towards `otherEnd`; `nil` when there is none
    /// or `place` already is a stop.
    public func stop(towards otherEnd: Place) -> Place? {
        guard place.kind != .transitStop, var chosen = stops.first else { return nil }
        if place.coordinate.distance(to: otherEnd.coordinate) >= longDistanceMetres,
           let station = stops.first(where: { StopKind.infer(fromName: $0.name) == .train }) {
            chosen = station
        }
        if chosen.coordinate.distance(to: place.coordinate) <= endIsStopMetres || chosen.id == place.id {
            return nil
        }
        if chosen.kind == nil { chosen.kind = .transitStop }
        return chosen
    }

    /// The stop a ride from (to) `place` walks to because the transit engine, asked from the
    /// place itself, would find none: its nearest stop is beyond the engine's access radius
    /// (`PlannerConfiguration.rideReachRadius`), as a new plan finds no journey from the door
    /// there and walks to the stop `stop(towards:)` chooses. Nil when the engine reaches a stop
    /// from the place (the ride starts at the door and the engine times the walk) or none is near.
    public func stopBeyondTheEnginesReach(towards otherEnd: Place) -> Place? {
        guard let nearest = stops.first, nearest.coordinate.distance(to: place.coordinate) > rideReachMetres else { return nil }
        return stop(towards: otherEnd)
    }

    /// Whether two places are the same stop: the same ID, or the same name within
    /// `endIsStopMetres` (the place index and the timetable may place a stop a few metres apart).
    func isSameStop(_ one: Place, _ other: Place) -> Bool {
        one.id == other.id || (one.name == other.name && one.coordinate.distance(to: other.coordinate) <= endIsStopMetres)
    }
}

extension Planner {
    /// The stops around `place` a transit plan could walk to from it (none asked for a stop).
    public func accessStops(around place: Place) async throws -> AccessStops {
        guard place.kind != .transitStop else { return AccessStops(place: place, stops: [], configuration: configuration) }
        try Task.checkCancellation()
        let stops = try await routing.nearbyStops(around: place.coordinate, radius: configuration.accessStopRadius,
                                                  limit: configuration.accessStopLookupLimit)
            .filter(\.coordinate.isValid)
        return AccessStops(place: place, stops: stops, configuration: configuration)
    }

    /// The stops around the places across the street segments of the pinned rides' inferred
    /// stops (for `RoutePlan.unpinning(stopsAround:)`); a place whose stops can't be asked has none listed.
    public func accessStops(aroundStopsKeptByPinsIn plan: RoutePlan) async -> [AccessStops] {
        var found: [AccessStops] = []
        for ride in plan.pinnedSegmentIndices where plan.modes[ride] == .transit {
            for (stop, beyond) in [(ride + 1, ride + 2), (ride, ride - 1)]
            where plan.nodes.indices.contains(beyond) && plan.nodes[stop].isInferred
                && !found.contains(where: { $0.place.id == plan.nodes[beyond].place.id }) {
                if let stops = try? await accessStops(around: plan.nodes[beyond].place) { found.append(stops) }
            }
        }
        return found
    }

    /// The stops around both ends of segment `index` (for `RoutePlan.changingMode(ofSegment:to:stopsAround:)`);
    /// an end whose stops can't be asked has none listed (the stop across from it is then kept).
    public func accessStops(aroundEndsOfSegment index: Int, in plan: RoutePlan) async -> [AccessStops] {
        var found: [AccessStops] = []
        for end in [index, index + 1] where plan.nodes.indices.contains(end) {
            if let stops = try? await accessStops(around: plan.nodes[end].place) { found.append(stops) }
        }
        return found
    }

    /// The stops around the neighbours of node `index`, and around the nodes up to three away
    /// (for `RoutePlan.removingNode(at:stopsAround:)`: the rides a removal joins end at stops
    /// chosen again from the places across their walks); a node whose stops can't be asked has
    /// none listed (the stop next to it is then kept). A stop asks nothing: it is its own.
    public func accessStops(aroundNeighboursOf index: Int, in plan: RoutePlan) async -> [AccessStops] {
        var found: [AccessStops] = []
        for neighbour in [index - 1, index + 1, index - 2, index + 2, index - 3, index + 3] where plan.nodes.indices.contains(neighbour) {
            if let stops = try? await accessStops(around: plan.nodes[neighbour].place) { found.append(stops) }
        }
        return found
    }
}
