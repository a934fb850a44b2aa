import Foundation

extension RouteLeg {
    /// The same transit journey as seen from its first boarding stop: the access walk, which the
    /// plan's own walk segment now covers, is left out (departure = boarding time).
    func startingAtFirstBoarding() -> RouteLeg {
        guard let boarding = rides.first?.boarding else { return self }
        var leg = self
        let access = walks.first { $0.kind == .access }
        leg.walks.removeAll { $0.kind == .access }
        leg.distance = distance.map { max(0, $0 - (access?.distance ?? 0)) }
        if !leg.geometry.isEmpty { leg.geometry.removeFirst() }
        leg.departure = boarding.time
        leg.expectedTravelTime = (arrival ?? boarding.time.addingTimeInterval(expectedTravelTime))
            .timeIntervalSince(boarding.time)
        return leg
    }

    /// The same transit journey ending where its last ride alights (the egress walk left out).
    func endingAtLastAlighting() -> RouteLeg {
        guard let alighting = rides.last?.alighting else { return self }
        var leg = self
        let egress = walks.last { $0.kind == .egress }
        leg.walks.removeAll { $0.kind == .egress }
        leg.distance = distance.map { max(0, $0 - (egress?.distance ?? 0)) }
        if !leg.geometry.isEmpty { leg.geometry.removeLast() }
        let start = departure ?? alighting.time.addingTimeInterval(-expectedTravelTime)
        leg.arrival = alighting.time
        leg.expectedTravelTime = alighting.time.timeIntervalSince(start)
        return leg
    }

    /// The same rides with the first boarded at `boarding` and the last left at `alighting`,
    /// other calls of their own trips (from the stops, no walks at those ends): the trips'
    /// other calls are kept as they are, so only the ends move.
    func ridingTheSameTrips(boardingAt boarding: TripCall?, alightingAt alighting: TripCall?) -> RouteLeg {
        guard !rides.isEmpty else { return self }
        var leg = self
        if let boarding {
            leg = leg.startingAtFirstBoarding()
            let old = leg.rides[0].boarding.coordinate
            leg.rides[0].boarding = TransitStopCall(stopID: boarding.stopID, name: boarding.name, coordinate: boarding.coordinate,
                                                    time: boarding.departure)
            leg.geometry.insert(boarding.coordinate, at: 0)
            leg.distance = leg.distance.map { $0 + boarding.coordinate.distance(to: old) }
            leg.departure = boarding.departure
        }
        if let alighting {
            leg = leg.endingAtLastAlighting()
            let last = leg.rides.count - 1, old = leg.rides[last].alighting.coordinate
            leg.rides[last].alighting = TransitStopCall(stopID: alighting.stopID, name: alighting.name, coordinate: alighting.coordinate,
                                                        time: alighting.arrival)
            leg.geometry.append(alighting.coordinate)
            leg.distance = leg.distance.map { $0 + alighting.coordinate.distance(to: old) }
            leg.arrival = alighting.arrival
        }
        if let departure = leg.departure, let arrival = leg.arrival { leg.expectedTravelTime = arrival.timeIntervalSince(departure) }
        return leg
    }

    /// Whether the journey walks from its start to a stop elsewhere (or from a stop elsewhere to
    /// its end) before (after) riding.
    func walksToAnotherStop(at end: TransitWalkStep.Kind) -> Bool {
        guard !rides.isEmpty else { return false }
        return walks.contains { $0.kind == end && $0.distance > 0 }
    }
}

extension RoutePlan {
    /// Makes the stops the planner inserted the stops the transit leg of segment `index` really
    /// uses: an inferred node before it becomes the first boarding stop, one after it the last
    /// alighting stop, and the leg is trimmed to start (end) there. The walk segment on the other
    /// side of a moved node is emptied, so that it is timed to the new stop; its decisions follow
    /// the node (`replacingNode`): a pinned walk there keeps its far end and its pin and is
    /// re-timed (`Planner.retimingPinnedStreets`), never kept to a stop no ride uses (trial 49
    /// finding 4a). A node the user chose and a current-location node are never moved; a pinned
    /// ride's nodes are its own stops (`takingThePinnedRidesStops`).
    /// - returns: the plan and the segments emptied (at most `index - 1` and `index + 1`).
    func adoptingTransitStops(ofSegment index: Int) -> (plan: RoutePlan, emptied: [Int]) {
        guard modes[index] == .transit, var leg = legs[index], let first = leg.rides.first, let last = leg.rides.last
        else { return (self, []) }
        var plan = self
        var emptied: [Int] = []
        func canMove(_ node: Int, to stop: Place, besides segment: Int) -> Bool {
            nodes[node].isInferred && !nodes[node].isCurrentLocation && nodes[node].place.id != stop.id
                && modes[segment] != .transit && !isPinned(segment: index)
        }
        let boarding = first.boarding.place, alighting = last.alighting.place
        let boards = index > 0 && leg.walksToAnotherStop(at: .access) && canMove(index, to: boarding, besides: index - 1)
            && boarding.id != nodes[index - 1].place.id
        let alights = index + 2 < nodes.count && leg.walksToAnotherStop(at: .egress) && canMove(index + 1, to: alighting, besides: index + 1)
            && alighting.id != nodes[index + 2].place.id
        var boarded = boards && plan.replacingNode(index, with: boarding)
        let alighted = alights && plan.replacingNode(index + 1, with: alighting)
        // The boarding stop may be the stop inferred after the ride, which the alighting stop has
        // just replaced: from a place whose nearest stop lies across a lake, the ride asked from
        // the place boarded at the stop inferred for the destination and rode on; kept at the
        // far stop, the plan walked 40 minutes there and missed it (trial 60 F8).
        if boards, !boarded, alighted { boarded = plan.replacingNode(index, with: boarding) }
        if boarded {
            leg = leg.startingAtFirstBoarding()
            emptied.append(index - 1)
        }
        if alighted {
            leg = leg.endingAtLastAlighting()
            emptied.append(index + 1)
        }
        // A ride asked from the stop it boards at (a stop adopted before) walks 0 m to it: the
        // same leg as one adopted just now, so it is trimmed alike (a recompute then gives what
        // the edit gave).
        if !isPinned(segment: index) {
            if index > 0, nodes[index].isInferred, !emptied.contains(index - 1), leg.walks.contains(where: { $0.kind == .access && $0.distance == 0 }) {
                leg = leg.startingAtFirstBoarding()
            }
            if index + 2 < nodes.count, nodes[index + 1].isInferred, !emptied.contains(index + 1),
               leg.walks.contains(where: { $0.kind == .egress && $0.distance == 0 }) {
                leg = leg.endingAtLastAlighting()
            }
        }
        plan.legs[index] = leg
        guard !emptied.isEmpty else { return (plan, []) }
        for segment in emptied { plan.legs[segment] = nil }
        return (plan, emptied)
    }

    /// A ride the user chose among the alternatives of segment `index` (`choosingAlternative`)
    /// that walks from the stop the planner inferred before it to another stop (or from its last
    /// stop to the inferred one after it): that node becomes the option's stop (still inferred),
    /// the leg is trimmed to start (end) there and the street segment beyond is emptied, to be
    /// walked straight to it. Kept, the traveller walked to a stop the chosen bus doesn't use and
    /// on to the next one, leaving earlier than the option promised (issue 39 item 4, `plan
    /// choose` of bus 2 from Pyynikintori F after the plan walked to Pyynikintori E for bus 7).
    /// Done before the pin, as `adoptingTransitStops` does for the planner's rides; a node the
    /// user chose, the current location and a node beside a pinned street segment or a route the
    /// user chose stay.
    /// Metres within which a node and a ride's stop are the same stop (the default of
    /// `PlannerConfiguration.endIsStopMetres`).
    static let sameStopMetres: Double = 25

    func takingStops(of leg: RouteLeg, ofSegment index: Int) -> (plan: RoutePlan, leg: RouteLeg) {
        guard modes[index] == .transit, let first = leg.rides.first, let last = leg.rides.last else { return (self, leg) }
        var plan = self, leg = leg
        func canMove(_ node: Int, besides street: Int) -> Bool {
            (0..<segmentCount).contains(street) && nodes[node].isInferred && !nodes[node].isCurrentLocation
                && modes[street] != .transit && !isPinned(segment: street) && !isChosenRoute(segment: street)
        }
        let boarding = first.boarding.place, alighting = last.alighting.place
        // A proposal moved to the stop of its trip nearest the traveller (`Planner.boardingTheTripsNearestStop`)
        // boards away from the node without a walk of its own: the node moves there as well.
        let boardsElsewhere = boarding.id != nodes[index].place.id
            && boarding.coordinate.distance(to: nodes[index].place.coordinate) > Self.sameStopMetres
        if index > 0, leg.walksToAnotherStop(at: .access) || boardsElsewhere, canMove(index, besides: index - 1),
           boarding.id != nodes[index - 1].place.id, plan.replacingNode(index, with: boarding) {
            leg = leg.walksToAnotherStop(at: .access) ? leg.startingAtFirstBoarding() : leg
            plan.legs[index - 1] = nil
        }
        if index + 2 < nodes.count, leg.walksToAnotherStop(at: .egress), canMove(index + 1, besides: index + 1),
           alighting.id != nodes[index + 2].place.id, plan.replacingNode(index + 1, with: alighting) {
            leg = leg.endingAtLastAlighting()
            plan.legs[index + 1] = nil
        }
        return (plan, leg)
    }

    /// Puts `place` in node `index` (still inferred); the decisions of the two segments touching
    /// it follow it: locks (the mode, the chosen departure), pins, pending proposals, dismissals
    /// and notes (why it rides, still true). The node is the same stop of the same journey, moved
    /// to where a ride of it boards or alights: a pin dropped with its old key left the user's
    /// ride unpinned (trial 50 finding 3). `false` (and no change) when it would put one place
    /// twice in a row.
    mutating func replacingNode(_ index: Int, with place: Place) -> Bool {
        var newNodes = nodes
        newNodes[index] = PlanNode(place: place, isInferred: true, stay: nodes[index].stay)
        guard (try? Self.checkNoSamePlaceTwice(newNodes, around: index)) != nil else { return false }
        let touched = [index - 1, index].filter { (0..<segmentCount).contains($0) }
        let oldKeys = touched.map { (segment: $0, key: segmentKey($0)) }
        let old = self
        replaceStructure(nodes: newNodes, modes: modes, legs: legs, origins: sameSegments)
        for (segment, before) in oldKeys {
            let after = segmentKey(segment)
            locks[after] = old.locks[before]
            if var pin = old.pins[before] { pin.segment = after; pins[after] = pin }
            if var update = old.pending[before] { update.segment = after; pending[after] = update }
            dismissed[after] = old.dismissed[before]
            notes[after] = old.notes[before]
        }
        return true
    }
}

extension RoutePlan {
    /// The street segments, besides `index`, that touch a transit segment next to segment
    /// `index`: seen from a transit leg's access walk, its egress walk (and the other way round).
    /// Empty for a transit segment.
    func streetSegments(aroundTransitNextTo index: Int) -> [Int] {
        let segments = 0..<segmentCount
        guard segments.contains(index), modes[index] != .transit else { return [] }
        let transit = [index - 1, index + 1].filter { segments.contains($0) && modes[$0] == .transit }
        let around = transit.flatMap { [$0 - 1, $0 + 1] }
            .filter { segments.contains($0) && $0 != index && modes[$0] != .transit }
        return Array(Set(around)).sorted()
    }
}
