import Foundation

/// The edits a user makes to a plan. Each returns the edited plan and empties exactly the legs
/// the edit affects, so that `Planner.computeLegs` re-queries only those
/// (DESIGN.md "Edits recompute only what they touch"):
///
/// | edit | legs emptied |
/// |---|---|
/// | insert / remove / move a node | the segments touching that node |
/// | change a segment's mode | that segment (only if the mode changed) |
/// | apply a preset | segments whose mode changed (stops inserted only for transit go with it) |
/// | pace | every walk and transit leg (transit legs walk to, between and from their stops) |
/// | access (step-free) | every walk and transit leg, chosen routes too (car and bike legs do not use it) |
/// | time preference, swap | every leg |
/// | pin | every leg but the pinned ones and chosen routes; none for the ride the segment shows |
/// | accept a pending update | every leg but the pinned ones (its time moved) |
/// | unpin, unlock of a pin | the transit legs the pins timed (`emptyLegsRetimed(since:)`) |
/// | dismiss | none |
///
/// All indices are 0-based; bad input throws `PlannerError` and changes nothing.
extension RoutePlan {
    // MARK: - Structure

    /// Inserts `node` so that it becomes `nodes[index]` (0 = new origin, `nodes.count` = new destination).
    /// The segment it splits becomes two segments with `mode` (default: `hopModes`, one per new
    /// segment as `Planner.insertedHops` chose them, with their `hopNotes`, else the split
    /// segment's mode). With
    /// `stopsAround` (`Planner.accessStops(around:)` of the new place), the stops inferred next
    /// to it for a ride are chosen again from it (`choosingAccessStopsAgain`), and a ride to or
    /// from it walks to the stop a new plan walks to where the engine reaches none from the place
    /// (`walkingToStopsBeyondTheEnginesReach`).
    ///
    /// ```swift
    /// let viaStation = try plan.insertingNode(PlanNode(place: station), at: 1, mode: .transit)
    /// ```
    public func insertingNode(_ node: PlanNode, at index: Int, mode: TravelMode? = nil,
                              hopModes: [TravelMode]? = nil, hopNotes: [ModeNote?] = [],
                              stopsAround: AccessStops? = nil) throws -> RoutePlan {
        try Self.checkCoordinate(node.place)
        guard (0...nodes.count).contains(index) else {
            throw PlannerError.nodeIndexOutOfRange(index: index, nodeCount: nodes.count)
        }
        var newNodes = nodes
        newNodes.insert(node, at: index)
        try Self.checkNoSamePlaceTwice(newNodes, around: index)
        try Self.checkNoStretchBackToItsStart(newNodes, around: [index - 1, index])
        var newModes = modes
        var newLegs = legs
        let origins: [Int?]
        let ends = index == 0 || index == nodes.count
        let hops = mode == nil && hopModes?.count == (ends ? 1 : 2) ? hopModes : nil
        if index == 0 {
            newModes.insert(mode ?? hops?[0] ?? modes[0], at: 0)
            newLegs.insert(nil, at: 0)
            origins = Self.origins(count: segmentCount, replacing: 0..<0, with: 1)
        } else if index == nodes.count {
            newModes.append(mode ?? hops?[0] ?? modes[modes.count - 1])
            newLegs.append(nil)
            origins = Self.origins(count: segmentCount, replacing: segmentCount..<segmentCount, with: 1)
        } else {
            let split = index - 1
            let segmentMode = mode ?? modes[split]
            newModes.replaceSubrange(split...split, with: hops ?? [segmentMode, segmentMode])
            newLegs.replaceSubrange(split...split, with: [nil, nil])
            origins = Self.origins(count: segmentCount, replacing: split..<(split + 1), with: 2)
        }
        var plan = self
        plan.replaceStructure(nodes: newNodes, modes: newModes, legs: newLegs, origins: origins)
        plan.emptyLegsRetimed(since: self, origins: origins)
        // Why each hop has the mode chosen for it (`Planner.insertedHops`), kept with the plan.
        if let hops, hops.count == hopNotes.count {
            for (offset, note) in hopNotes.enumerated() { plan.setModeNote(note, ofSegment: (index == 0 ? 0 : index - 1) + offset) }
        }
        // A ride inserted next to a stop inferred for the planner's ride beyond it joins that ride
        // (after the node first, so that its index holds; then before it).
        var node = index
        if index < nodes.count { plan = plan.joiningInsertedRide(at: index).plan }
        if index > 0 {
            let joined = plan.joiningInsertedRide(at: index - 1)
            plan = joined.plan
            node -= joined.nodesLeftOutBefore
        }
        // A ride inserted next to a pinned ride's stop would board the pinned vehicle itself: walked.
        plan = plan.walkingTheWayToPinnedRides(besides: node)
        var chosen = stopsAround.map { plan.choosingAccessStopsAgain(nextTo: node, from: $0) } ?? plan
        // A ride to or from a place whose nearest stop is beyond the engine's reach walks to it.
        if let stopsAround { chosen = chosen.walkingToStopsBeyondTheEnginesReach(ofRidesAt: stopsAround) }
        return chosen.leavingOutStopsNoRideUses()
    }

    /// Removes an intermediate node; its two segments merge into one with an empty leg.
    /// Removing an inferred stop means "don't go via there", so the merged segment is locked;
    /// removing a waypoint the user added does not lock. With `stopsAround` (the
    /// `Planner.accessStops(around:)` of the node's neighbours), a stop inferred next to the
    /// removed node for a ride is chosen again from the neighbour it now has.
    public func removingNode(at index: Int, stopsAround: [AccessStops] = []) throws -> RoutePlan {
        guard nodes.indices.contains(index) else {
            throw PlannerError.nodeIndexOutOfRange(index: index, nodeCount: nodes.count)
        }
        guard index != 0, index != nodes.count - 1 else { throw PlannerError.cannotRemoveEndpoint(index: index) }
        var newNodes = nodes
        let removed = newNodes.remove(at: index)
        try Self.checkNoSamePlaceTwice(newNodes, around: index - 1)
        try Self.checkGoesSomewhere(newNodes)
        try Self.checkNoStretchBackToItsStart(newNodes, around: [index - 1])
        let before = index - 1, after = index
        // Where the car was left behind, a drive there stays only when the user set it.
        let carLeftBehind = carLeft(before: before) != nil
        let mergedMode = Self.mergedMode(modes[before], lock(ofSegment: before), modes[after], lock(ofSegment: after),
                                         carAtHand: !carLeftBehind)
        var newModes = modes
        newModes.replaceSubrange(before...after, with: [mergedMode])
        var newLegs = legs
        newLegs.replaceSubrange(before...after, with: [nil])
        let avoided = (lock(ofSegment: before)?.avoidedStops ?? []) + (lock(ofSegment: after)?.avoidedStops ?? [])
        let origins = Self.origins(count: segmentCount, replacing: before..<(after + 1), with: 1)
        var plan = self
        plan.replaceStructure(nodes: newNodes, modes: newModes, legs: newLegs, origins: origins)
        if removed.isInferred {
            // "Don't go via there": locked, and its transit queries avoid the stop from now on.
            plan.locks[plan.segmentKey(before)] = SegmentLock(mode: mergedMode,
                                                              avoidedStops: avoided + [removed.place.coordinate])
        } else if mergedMode == .car, carLeftBehind {
            plan.locks[plan.segmentKey(before)] = SegmentLock(mode: .car)  // the user's drive (`mergedMode`), still theirs
        }
        plan.emptyLegsRetimed(since: self, origins: origins)
        // The ride from the removed place and a ride of the planner's before (after) it, meeting at
        // an inferred stop, are one ride: kept as two, one vehicle trip would run through both.
        // Its stops were chosen for the removed place's rides: chosen again from the places across
        // their walks (a stop for Hervanta kept after Hervanta went walked 8.1 km on).
        guard mergedMode != .transit else {
            let joined = plan.joiningRides(at: before, locking: false)
            // A ride so made to (from) a pinned ride's stop would take the pinned vehicle: walked.
            return joined.plan.choosingARidesEndStopsAgain(joined.ride, from: stopsAround).walkingTheWaysToPinnedRides()
                .leavingOutStopsNoRideUses()
        }
        return plan.choosingAccessStopsAgain(across: before, from: stopsAround, movingPins: true)
            .joiningRidesNewlyMeeting(since: self).leavingOutStopsNoRideUses()
    }

    /// Replaces the place of node `index` (the user picked another station or address; origin and
    /// destination included). The node is no longer inferred nor "current location" and keeps its
    /// stay; the segments touching it are emptied. Locks (and a pin) keyed by the old place are
    /// dropped: they were decisions about going to or from that place, not the new one. With
    /// `stopsAround` (`Planner.accessStops(around: place)`), the stops inferred next to it for a
    /// ride are chosen again from the new place (`choosingAccessStopsAgain`). With `hops`
    /// (`Planner.movedHops` of this plan), each stretch next to the node takes the mode chosen
    /// for it first (`takingMovedHop`): a stretch walked is one walk, its inferred stops left out.
    public func movingNode(at index: Int, to place: Place, stopsAround: AccessStops? = nil,
                           hops: [Planner.MovedHop] = []) throws -> RoutePlan {
        guard nodes.indices.contains(index) else {
            throw PlannerError.nodeIndexOutOfRange(index: index, nodeCount: nodes.count)
        }
        try Self.checkCoordinate(place)
        var newNodes = nodes
        newNodes[index] = PlanNode(place: place, stay: nodes[index].stay)
        try Self.checkNoSamePlaceTwice(newNodes, around: index)
        try Self.checkGoesSomewhere(newNodes)
        try Self.checkNoStretchBackToItsStart(newNodes, around: [index - 1, index])
        let touched = [index - 1, index].filter { (0..<segmentCount).contains($0) }
        var newLegs = legs
        for segment in touched { newLegs[segment] = nil }
        var plan = self
        plan.replaceStructure(nodes: newNodes, modes: modes, legs: newLegs, origins: sameSegments)
        // The mode the user set for a touched segment stays theirs (its lock's mode, not a chosen
        // departure or route, which belonged to the old place): without it, a ride they chose
        // read as the planner's at the next edit and was judged by the walk rule.
        for segment in touched where lock(ofSegment: segment)?.mode == modes[segment] {
            plan.locks[plan.segmentKey(segment)] = SegmentLock(mode: modes[segment])
        }
        plan.emptyLegsRetimed(since: self)
        var node = index
        let ordinal = plan.ownNodes(before: index)
        var taken: [Planner.MovedHop] = []
        // The stretch after the node first, so that the one before it keeps its numbers.
        for hop in hops.sorted(by: { $0.stretch.lowerBound > $1.stretch.lowerBound })
        where (hop.stretch.lowerBound == index || hop.stretch.upperBound == index) && !holdsDecision(hop.stretch)
            && plan.stretches().contains(hop.stretch) {
            let removed = plan.takeMovedHop(hop)
            if hop.stretch.upperBound == index { node -= removed }
            taken.append(hop)
        }
        var moved = stopsAround.map { plan.choosingAccessStopsAgain(nextTo: node, from: $0) } ?? plan
        moved.notingMovedHops(taken, movedNode: index, ordinal: ordinal)
        // With the stops around the new place (the daemon's move; `Planner.movedHops` asks without,
        // as its hops are numbered as the plan before), a stop no ride uses any more goes.
        return stopsAround == nil ? moved : moved.leavingOutStopsNoRideUses()
    }

    /// Swaps origin and destination: the whole chain is reversed, every leg emptied, and each lock
    /// carried to the same segment travelled the other way (its mode; a chosen departure does not
    /// apply the other way). A pin and pending updates are dropped for the same reason.
    public func swappingEnds() -> RoutePlan {
        var plan = self
        plan.replaceStructure(nodes: nodes.reversed(), modes: modes.reversed(),
                              legs: Array(repeating: nil, count: segmentCount),
                              origins: Array(repeating: nil, count: segmentCount))
        // Segment i becomes segment n - 1 - i; its key is counted afresh from the new origin
        // (the last of two rides between the same places is now the first).
        for index in 0..<segmentCount {
            if let lock = lock(ofSegment: index) { plan.locks[plan.segmentKey(segmentCount - 1 - index)] = SegmentLock(mode: lock.mode) }
        }
        return plan
    }

    /// Resolves every current-location node to `coordinate` (the latest accepted fix). Segments
    /// touching a node that moved are emptied; their locks, pins and dismissed proposals follow
    /// the node's new place ID (a fix is not an edit: what the user decided and dismissed stays).
    public func resolvingCurrentLocation(_ coordinate: Coordinate) -> RoutePlan {
        guard coordinate.isValid else { return self }
        var plan = self
        for index in nodes.indices where nodes[index].isCurrentLocation {
            let node = plan.nodes[index]
            guard node.place.coordinate != coordinate else { continue }
            var moved = node
            moved.place.coordinate = coordinate
            let touched = [index - 1, index].filter { (0..<plan.segmentCount).contains($0) }
            let carried = touched.compactMap { segment in plan.lock(ofSegment: segment).map { (segment, $0) } }
            // Pins follow the node like locks: the same departure, asked from where the traveller is.
            let pinsCarried = touched.compactMap { segment in plan.pin(ofSegment: segment).map { (segment, $0) } }
            let dismissalsCarried = touched.compactMap { segment in plan.dismissed[plan.segmentKey(segment)].map { (segment, $0) } }
            var newNodes = plan.nodes
            newNodes[index] = moved
            var newLegs = plan.legs
            for segment in touched { newLegs[segment] = nil }
            plan.replaceStructure(nodes: newNodes, modes: plan.modes, legs: newLegs, origins: plan.sameSegments)
            for (segment, pin) in pinsCarried {
                var moved = pin
                moved.segment = plan.segmentKey(segment)
                plan.pins[moved.segment] = moved
            }
            for (segment, lock) in carried { plan.locks[plan.segmentKey(segment)] = lock }
            for (segment, leg) in dismissalsCarried { plan.dismissed[plan.segmentKey(segment)] = leg }
        }
        return plan
    }

    // MARK: - Modes

    /// Sets a segment's mode by hand, which locks it: presets and refinement leave it alone.
    /// The mode it already has keeps its lock as it is (a chosen route, a pinned departure):
    /// asking for the same mode again changes nothing the user decided.
    /// With `stopsAround` (`Planner.accessStops(aroundEndsOfSegment:in:)`), a ride made a walk
    /// (a drive, a cycle) from or to a stop the planner inferred for the ride on its other side
    /// chooses that stop again from the place it now reaches on foot (issue 39 item 4): it was
    /// chosen for another place, and walking from it can mean walking back past the ride.
    /// A segment set to transit whose ends are stops the planner inferred (a drive or walk
    /// between two stops made a ride, joined with the rides beside it) chooses them again from
    /// the places across their street segments (`choosingARidesEndStopsAgain`; the stops
    /// around those places: `Planner.accessStops(forModeChangeOf:in:)`). An end of that ride
    /// whose nearest stop is beyond the transit engine's reach walks to the stop a new plan walks
    /// to (`walkingToStopsBeyondTheEnginesReach`); the engine would find no ride from there.
    /// With `now`, a walk set to transit whose pinned ride across the stop, joined with it, would
    /// leave before the traveller can be at the walk's start stays apart: a ride of its own to the
    /// pinned ride's stop (see `joiningRides`).
    public func changingMode(ofSegment index: Int, to mode: TravelMode, stopsAround: [AccessStops] = [],
                             now: Date? = nil) throws -> RoutePlan {
        try checkSegment(index)
        var plan = self
        let key = segmentKey(index)
        if modes[index] != mode {
            plan.setMode(mode, at: index)
            plan.legs[index] = nil
            if pins[key] != nil {
                plan.pins[key] = nil
                plan.pending[key] = nil
                plan.dismissed[key] = nil
                plan.emptyLegsRetimed(since: self)
            }
        }
        if plan.locks[key]?.mode != mode { plan.locks[key] = SegmentLock(mode: mode) }
        plan.setModeNote(nil, ofSegment: index)  // the user chose: the planner's reason is no longer why
        guard modes[index] != mode else { return plan }
        if mode == .transit {
            // The walk set to transit, as it was before its leg was emptied: a pinned ride joined with it takes it along.
            let ready = now.flatMap { readyToLeave(now: $0)[index] }
            let joined = plan.joiningRides(at: index, joiningTheUsersRides: true, walk: legs[index], ready: ready)
            // An end the engine reaches no stop from walks to one, as a new plan does.
            let walked = joined.plan.walkingToStopsBeyondTheEnginesReach(ofRide: joined.ride, from: stopsAround)
            return walked.plan.choosingARidesEndStopsAgain(walked.ride, from: stopsAround)
        }
        // A stop with none to take its place stays: leaving it out would ride the walk the user set.
        return plan.choosingAccessStopsAgain(across: index, from: stopsAround, leavingOutWhenNone: false)
            .leavingOutARideWalkedBack(from: index, mode: mode, stopsAround: stopsAround)
            .leavingOutStopsNoRideUses()
    }

    /// Segment `index` just set to transit by hand: a ride on the other side of an inferred stop
    /// at either end joins it into one ride, locked to transit, the stop left out. The walk to a
    /// stop set to transit means "ride from here"; kept as two rides, one vehicle trip would run
    /// through both segments (a pinned bus ridden on past its stop in a second segment), or the
    /// walk would become a ride of its own back past the origin to that stop (issue 39 item 3).
    /// A ride the user decided (`joiningTheUsersRides`: a lock, chosen lines, a pin) joins too and
    /// keeps its decisions: its lock (avoided stops of both merged) and its pin, which then
    /// leaves when the joined segment does (its walk to the stop first). One pin at most is
    /// carried; a second pinned ride stays apart. Without it (a ride the planner merged, `plan
    /// remove`) only the planner's rides join, and the joined ride keeps a lock only if `locking`
    /// or it had one. `walk`: segment `index`'s walk leg before it was emptied; joined with a
    /// pinned ride, it becomes that ride's access (egress) walk (`joiningAccessWalk`), so the
    /// user's ride is kept as chosen rather than asked again from the walk's start. `ready`: when
    /// the traveller can leave segment `index`'s start; a pinned ride whose joined walk would start
    /// before then is not joined (trial 54: the 6.2 km walk from Lielahti joined the pinned bus 6
    /// at 08:14, "transit ride missed, 14.5 km", leaving 07:01 in a plan that reaches Lielahti at
    /// 08:18): the segment stays a ride of its own to the pinned ride's stop, so the pin is missed
    /// as the traveller rides there and its proposal is the first ride caught from that stop.
    /// Returns the plan and the ride's segment.
    func joiningRides(at index: Int, locking: Bool = true, joiningTheUsersRides: Bool = false,
                      walk: RouteLeg? = nil, ready: Date? = nil) -> (plan: RoutePlan, ride: Int) {
        var plan = self
        var first = index
        var carriedPin = false, joinedOnce = false
        // The stop after the segment, then the one before it (the indices before it stay put).
        for stop in [index + 1, index] {
            let other = stop == index + 1 ? first + 1 : first - 1
            guard stop > 0, stop < plan.nodes.count - 1, plan.nodes[stop].isInferred, !plan.nodes[stop].isCurrentLocation,
                  plan.segmentCount > other, other >= 0, plan.modes[other] == .transit,
                  joiningTheUsersRides || !plan.isLocked(segment: other), !(carriedPin && plan.isPinned(segment: other))
            else { continue }
            var newNodes = plan.nodes
            newNodes.remove(at: stop)
            guard (try? Self.checkNoSamePlaceTwice(newNodes, around: stop - 1)) != nil else { continue }
            let ownLock = plan.locks[plan.segmentKey(first)] ?? (locking ? SegmentLock(mode: .transit) : nil)
            let rideLock = plan.locks[plan.segmentKey(other)]
            var pin = plan.pins[plan.segmentKey(other)] ?? plan.pins[plan.segmentKey(first)]
            // The pinned ride with the walk as its access (egress) walk: the pin leaves when it does.
            var ride: RouteLeg?
            if plan.pins[plan.segmentKey(other)] != nil, !joinedOnce, let walk, let pinnedLeg = plan.legs[other] ?? pin?.leg {
                let place = plan.nodes[other > first ? first : first + 1].place, stopPlace = plan.nodes[stop].place
                ride = other > first ? pinnedLeg.joiningAccessWalk(walk, from: place, to: stopPlace)
                    : pinnedLeg.joiningEgressWalk(walk, from: stopPlace, to: place)
                if other > first, let ready, let leaves = ride?.departure, leaves < ready.addingTimeInterval(-Self.connectionSlack) {
                    continue
                }
                if let ride, let leaves = ride.departure {
                    pin?.departure = leaves
                    pin?.duration = ride.expectedTravelTime
                    pin?.leg = ride
                } else if other > first {
                    pin?.departure.addTimeInterval(-walk.expectedTravelTime)  // asked again from the walk's start
                }
            }
            let merged = min(first, other)
            var newModes = plan.modes, newLegs = plan.legs
            newModes.replaceSubrange(merged...(merged + 1), with: [.transit])
            newLegs.replaceSubrange(merged...(merged + 1), with: [ride])
            plan.replaceStructure(nodes: newNodes, modes: newModes, legs: newLegs,
                                  origins: Self.origins(count: plan.segmentCount, replacing: merged..<(merged + 2), with: 1))
            let key = plan.segmentKey(merged)
            if var lock = rideLock ?? ownLock {
                if let pin, rideLock?.departure != nil { (lock.departure, lock.duration) = (pin.departure, pin.duration) }
                // The ride's own decisions (its departure, chosen lines) with the stops both avoided.
                lock.mode = .transit
                lock.avoidedStops = (rideLock?.avoidedStops ?? []) + (ownLock?.avoidedStops ?? []).filter { stop in
                    !(rideLock?.avoidedStops ?? []).contains(stop)
                }
                plan.locks[key] = lock
            }
            if var pin {
                pin.segment = key
                plan.pins[key] = pin
                carriedPin = true
                // The legs timed from the pin are timed from its new segment: asked again.
                for index in 0..<plan.segmentCount where plan.modes[index] == .transit && !plan.isPinned(segment: index) {
                    plan.legs[index] = nil
                }
            }
            first = merged
            joinedOnce = true
        }
        return (plan, first)
    }

    /// Puts the preset's mode on every segment that is not locked; locked segments keep theirs.
    /// `.fastest` here is the offline guess by straight-line length (`PlanPreset.offlineMode`);
    /// `Planner.applyingPreset(_:to:)` measures instead.
    /// Stops the planner inserted for a transit segment that is no longer transit go too (the
    /// user's own stops stay), as `Planner.rebuild` would leave them out.
    public func applyingPreset(_ preset: PlanPreset) -> RoutePlan {
        applyingPreset(preset, toSegments: Set(0..<segmentCount))
    }

    /// `applyingPreset(_:)` changing the modes of `segments` only (the planner's presets use it
    /// for the stretches the user locked; the others it rebuilds from their ends).
    func applyingPreset(_ preset: PlanPreset, toSegments segments: Set<Int>) -> RoutePlan {
        var plan = self
        let walksToRides = accessWalks(underPreset: preset, toSegments: segments)
        // The modes the chain will have, in order: a stretch left to `Planner.rebuildingStretches`
        // (not in `segments`) takes the preset's mode, a drive only where the car is at hand. Read
        // on this plan's modes instead, a drive after a walk the user locked looked at hand while
        // the stretch before it was still walked, then driven by the rebuild (seed 44).
        var chain = modes
        for index in 0..<segmentCount {
            guard segments.contains(index) else {
                if let mode = preset.mode, mode != .car || Self.carLeft(nodes: nodes, modes: chain, before: index) == nil {
                    chain[index] = mode
                }
                continue
            }
            guard !isLocked(segment: index) else { continue }
            // A walk to or from a stop of a ride that stays is how the traveller reaches it: made
            // a ride or a drive, it would split one trip or leave a car at the stop.
            var mode = walksToRides.contains(index) ? .walk : plan.presetMode(preset, from: index, to: index + 1)
            // Where the car was left behind (after a ride, a walk), a preset never drives: the
            // segment keeps its mode (a car the user chose stays theirs).
            if mode == .car, Self.carLeft(nodes: nodes, modes: chain, before: index) != nil { mode = modes[index] }
            chain[index] = mode
            if modes[index] != mode {
                plan.setMode(mode, at: index)
                plan.legs[index] = nil
            }
        }
        // An inferred stop with no transit on either side served nothing: merge its two segments.
        // A stop next to a locked segment stays (the user's decision is keyed to it).
        var index = 1
        while index < plan.nodes.count - 1 {
            let node = plan.nodes[index]
            guard node.isInferred, !node.isCurrentLocation, plan.modes[index - 1] != .transit, plan.modes[index] != .transit,
                  !plan.isLocked(segment: index - 1), !plan.isLocked(segment: index)
            else { index += 1; continue }
            var newNodes = plan.nodes
            newNodes.remove(at: index)
            guard (try? Self.checkNoSamePlaceTwice(newNodes, around: index - 1)) != nil else { index += 1; continue }
            var merged = plan.presetMode(preset, from: index - 1, to: index + 1)
            // Where the car was left behind, as above: the two segments keep their modes.
            if merged == .car, plan.carLeft(before: index - 1) != nil {
                merged = Self.mergedMode(plan.modes[index - 1], nil, plan.modes[index], nil)
            }
            var newModes = plan.modes, newLegs = plan.legs
            newModes.replaceSubrange((index - 1)...index, with: [merged])
            newLegs.replaceSubrange((index - 1)...index, with: [nil])
            plan.replaceStructure(nodes: newNodes, modes: newModes, legs: newLegs,
                                  origins: Self.origins(count: plan.segmentCount, replacing: (index - 1)..<(index + 1), with: 1))
        }
        return plan
    }

    /// The segments `applyingPreset(_:toSegments:)` makes or keeps walks: unlocked segments that
    /// are not rides with an end at a stop the planner inferred whose other segment is a ride
    /// after the preset (locked transit, transit the preset keeps, or the segment between two
    /// inferred stops the preset makes transit). These are the access and egress walks (a drive
    /// there by hand, unlocked, is walked too: park and ride is never a preset's side effect).
    private func accessWalks(underPreset preset: PlanPreset, toSegments segments: Set<Int>) -> Set<Int> {
        func isAccessStop(_ node: Int) -> Bool {
            node > 0 && node < nodes.count - 1 && nodes[node].isInferred && !nodes[node].isCurrentLocation
        }
        func ridesAfterPreset(_ index: Int) -> Bool {
            guard segments.contains(index), !isLocked(segment: index) else { return modes[index] == .transit }
            guard presetMode(preset, from: index, to: index + 1) == .transit else { return false }
            // A walk that may itself be kept for a ride does not count: only rides do, and the
            // segment between two stops the planner inferred, which an earlier preset made a drive
            // (a walk) and this one makes the ride again (else both sides of a stop would ride).
            return modes[index] == .transit || (isAccessStop(index) && isAccessStop(index + 1))
        }
        return Set((0..<segmentCount).filter { index in
            guard modes[index] != .transit, !isLocked(segment: index), segments.contains(index) else { return false }
            let before = index > 0 && nodes[index].isInferred && !nodes[index].isCurrentLocation && ridesAfterPreset(index - 1)
            let after = index + 1 < segmentCount && nodes[index + 1].isInferred && !nodes[index + 1].isCurrentLocation
                && ridesAfterPreset(index + 1)
            return before || after
        })
    }

    /// The preset's mode for a segment from node `from` to node `to`: its one mode, or for
    /// `.fastest` the offline guess by straight-line length.
    private func presetMode(_ preset: PlanPreset, from: Int, to: Int) -> TravelMode {
        preset.mode ?? PlanPreset.offlineMode(
            forStraightLineMetres: nodes[from].place.coordinate.distance(to: nodes[to].place.coordinate))
    }

    // MARK: - Time

    /// Fixes the departure of segment `index` to its computed leg ("this train"). Legs before it are
    /// then queried "arrive by" its departure and legs after it "depart at" its arrival, so all other
    /// legs are emptied. The segment is locked with the chosen departure and duration.
    /// - throws: `noLegToPin` when the segment has no leg or no time can be given to it.
    public func pinningDeparture(ofSegment index: Int) throws -> RoutePlan {
        try checkSegment(index)
        guard let departure = legs[index]?.departure ?? departureTimes()[index] else {
            throw PlannerError.noLegToPin(segment: index)
        }
        return try pinningDeparture(ofSegment: index, at: departure)
    }

    private func pinningDeparture(ofSegment index: Int, at departure: Date, keepingLegs: Bool = false) throws -> RoutePlan {
        guard let leg = legs[index] else { throw PlannerError.noLegToPin(segment: index) }
        let key = segmentKey(index)
        var plan = self
        // One pin per segment: this one's is replaced, the other segments' pins stay.
        plan.pins[key] = PinnedDeparture(segment: key, departure: departure, duration: leg.expectedTravelTime,
                                         tripIDs: leg.tripIDs, leg: leg)
        plan.locks[key] = SegmentLock(mode: modes[index], departure: departure, duration: leg.expectedTravelTime)
        plan.pending = [:]
        plan.dismissed = [:]
        if !keepingLegs { plan.emptyLegs(keeping: Set(plan.pinnedSegmentIndices)) }
        // An unlocked ride across the pinned ride's inferred stop would take the pinned vehicle: walked.
        return plan.walkingTheWaysToPinnedRides()
    }

    /// Pins segment `index` to `leg`, the answer for leaving at `departure`: a transit leg keeps
    /// its own departure (the first one at or after the time asked), a walk or car leg leaves at
    /// `departure`. Earlier legs then arrive by it and later ones leave from its arrival.
    /// - throws: `segmentIndexOutOfRange`, or `noLegToPin` when `leg` is of another mode.
    /// The ride the plan already shows (the same leg, with its times), pinned, empties no other
    /// leg: they already fit it, and asked again around the pin they took other stops and lines
    /// for the same ride (issue 39: `plan pin ID 4 08:41` on the 08:41 the plan showed changed
    /// segments 1–3). Only the pin marker changes.
    public func pinningDeparture(ofSegment index: Int, to leg: RouteLeg, departingAt departure: Date) throws -> RoutePlan {
        try checkSegment(index)
        guard leg.mode == modes[index] else { throw PlannerError.noLegToPin(segment: index) }
        let shown = leg.mode == .transit && leg.departure != nil && legs[index] == leg
        var plan = self
        plan.legs[index] = leg
        return try plan.pinningDeparture(ofSegment: index, at: leg.departure ?? departure, keepingLegs: shown)
    }

    /// Removes every pin; each segment keeps its mode lock. The pinned legs and the transit legs
    /// timed from the pins are emptied (`emptyLegsRetimed(since:)`), so the plan is then timed
    /// as a full recompute of its remaining decisions: a pinned walk or car leg was the user's,
    /// kept even when a newer answer (another pace) was proposed. Other walk and car legs stay.
    /// With `stopsAround` (`Planner.accessStops(aroundStopsKeptByPinsIn:)`), the stops a pin kept
    /// through an edit are chosen again (`choosingStopsKeptByPinsAgain`).
    public func unpinning(stopsAround: [AccessStops] = []) -> RoutePlan {
        guard !pins.isEmpty else { return self }
        let rides = pinnedSegmentIndices
        var plan = self
        plan.pins = [:]
        plan.pending = [:]
        plan.dismissed = [:]
        for key in pins.keys {
            if let lock = locks[key] { plan.locks[key] = SegmentLock(mode: lock.mode) }
            if let index = segmentIndex(of: key) { plan.legs[index] = nil }
        }
        plan.emptyLegsRetimed(since: self)
        return stopsAround.isEmpty ? plan : plan.choosingStopsKeptByPinsAgain(rides: rides, from: stopsAround)
    }

    /// Removes segment `index`'s pin (its pending update too); the segment keeps its mode lock.
    /// Its leg and the transit legs timed from it are emptied, as `unpinning` does for every pin
    /// (a pin `plan time` could not move to the plan's new day, docs/planner.md).
    public func unpinning(segment index: Int) throws -> RoutePlan {
        try checkSegment(index)
        let key = segmentKey(index)
        guard pins[key] != nil else { return self }
        var plan = self
        plan.pins[key] = nil
        plan.pending[key] = nil
        plan.dismissed[key] = nil
        if let lock = locks[key] { plan.locks[key] = SegmentLock(mode: lock.mode) }
        plan.legs[index] = nil
        plan.emptyLegsRetimed(since: self)
        return plan
    }

    /// Changes when the user wants to travel. Every leg depends on it and is emptied, except the
    /// pinned one and chosen walk or car routes: the pin (an absolute departure the user chose)
    /// stays, and when the new time can't make it the recompute marks it missed (or late) and
    /// proposes one that fits, never dropping it silently.
    public func settingTimePreference(_ preference: TimePreference) -> RoutePlan {
        var plan = self
        plan.timePreference = preference
        plan.pending = [:]
        plan.dismissed = [:]
        plan.emptyLegs(keeping: Set(pinnedSegmentIndices))
        return plan
    }

    /// Empties every leg so that the next `computeLegs` asks again (e.g. "refresh the times"
    /// after a new timetable). A pinned segment is then re-found by its trip or fingerprint.
    /// Pending updates go too: they were proposed from older answers, and the recompute
    /// proposes afresh for a pin it still cannot re-find.
    public func refreshing() -> RoutePlan {
        var plan = self
        plan.emptyLegs(keeping: [])
        plan.pending = [:]
        plan.dismissed = [:]
        return plan
    }

    // MARK: - Walking pace

    /// Sets the walking pace. Walk legs and transit legs (their walks to, between and from the
    /// stops scale with the pace) are emptied; car and bike legs keep their times. A pin keeps
    /// what the user pinned at the new pace (`pinKeptAtPace`): the same vehicle, the same walk.
    public func settingPace(_ pace: WalkingPace) -> RoutePlan {
        guard pace != self.pace else { return self }
        var plan = self
        plan.pace = pace
        let ratio = pace.durationMultiplier / self.pace.durationMultiplier
        for index in 0..<segmentCount where modes[index] == .walk || modes[index] == .transit {
            if isChosenRoute(segment: index), var leg = legs[index] {
                // The same route at the new pace: the engine scales walk durations by the pace.
                leg.expectedTravelTime *= ratio
                plan.legs[index] = leg
                plan.locks[segmentKey(index)]?.duration = leg.expectedTravelTime
            } else {
                plan.legs[index] = nil
                plan.pinKeptAtPace(ofSegment: index, ratio: ratio)
            }
        }
        return plan
    }

    /// Segment `index`'s pin retimed for walks `ratio` times as long, so that the recompute
    /// re-finds what was pinned (issue 39, pace): a pinned ride still leaves its stop when it
    /// did, so the walk to it leaves earlier (slower) or later (faster): the user's leg is kept
    /// with its walks scaled (`RouteLeg.walked(timesAsLong:)`, shown so when the ride is not
    /// re-found), and the pin asks from when its walk leaves, rounded up as the engine rounds
    /// walks, with a second to spare. Asked from the old time, a slower traveller missed the bus
    /// at the stop they could still reach, and the plan proposed a later one. A pinned walk
    /// keeps its departure and takes as much longer.
    private mutating func pinKeptAtPace(ofSegment index: Int, ratio: Double) {
        let key = segmentKey(index)
        guard var pin = pins[key] else { return }
        if modes[index] == .transit {
            guard let leg = pin.leg?.walked(timesAsLong: ratio), let boarding = leg.rides.first?.boarding.time,
                  let leaves = leg.departure else { return }
            pin.leg = leg
            pin.duration = leg.expectedTravelTime
            pin.departure = boarding.addingTimeInterval(-(max(0, boarding.timeIntervalSince(leaves)).rounded(.up) + 1))
        } else {
            pin.duration *= ratio
        }
        pins[key] = pin
        if var lock = locks[key], lock.departure != nil {
            lock.departure = pin.departure
            lock.duration = pin.duration
            locks[key] = lock
        }
    }

    /// normal → fast → slow → normal.
    public func cyclingPace() -> RoutePlan {
        settingPace(pace.next)
    }

    // MARK: - Step-free access

    /// Sets what the traveller needs from the way. Walk legs (another street profile) and transit
    /// legs (another timetable view, and their walks) are emptied, a chosen route too: it may not
    /// be step-free. Car and bike legs keep theirs.
    public func settingAccess(_ access: AccessNeed) -> RoutePlan {
        guard access != self.access else { return self }
        var plan = self
        plan.access = access
        for index in 0..<segmentCount where modes[index] == .walk || modes[index] == .transit {
            plan.legs[index] = nil
        }
        return plan
    }

    // MARK: - Pending updates

    /// Takes the newer answer for a pinned segment: it becomes the pinned leg, and the other legs
    /// are emptied because the pinned time moved. The lock keeps the user's line choice and
    /// avoided stops (decisions the accept does not name): a proposal on another line then shows
    /// the choice as replaced (`ridesAnotherLineThanChosen`), never dropped silently. A proposed
    /// ride boarding (alighting) at another stop than the node inferred for the missed one takes
    /// that node, as a chosen option does (`takingStops`): accepted as it was, tram 3 from
    /// Koskipuisto B left Koskipuisto D, the node for the missed bus 6, a stop no ride uses
    /// (trial 53).
    public func acceptingPendingUpdate(ofSegment index: Int) throws -> RoutePlan {
        try checkSegment(index)
        let key = segmentKey(index)
        guard let update = pending[key] else { throw PlannerError.noPendingUpdate(segment: index) }
        // "No later ride today" proposes nothing: there is nothing to accept, only to dismiss.
        guard case .ride(let latest) = update.proposal else { throw PlannerError.nothingToAccept(segment: index) }
        var plan = self
        plan.pending[key] = nil
        plan.dismissed[key] = nil
        // A walk or car proposal was timed to be shown; accepted, the pin holds its time and the
        // leg is kept as a recompute of that pin finds it.
        let taken = plan.takingStops(of: latest.withoutTimesOfItsOwn, ofSegment: index)
        plan = taken.plan
        let accepted = taken.leg, acceptedKey = plan.segmentKey(index)
        plan.legs[index] = accepted
        let departure = accepted.departure ?? latest.departure ?? pins[key]?.departure ?? departureTimes()[index]
        if let departure {
            plan.pins[acceptedKey] = PinnedDeparture(segment: acceptedKey, departure: departure, duration: accepted.expectedTravelTime,
                                                  tripIDs: latest.tripIDs, leg: accepted)
            plan.locks[acceptedKey] = SegmentLock(mode: modes[index], departure: departure,
                                                  duration: accepted.expectedTravelTime,
                                                  chosenLines: locks[key]?.chosenLines ?? [],
                                                  avoidedStops: locks[key]?.avoidedStops ?? [])
        }
        plan.emptyLegs(keeping: Set(plan.pinnedSegmentIndices).union([index]))
        return plan
    }

    /// Keeps the user's choice and forgets the newer answer.
    public func dismissingPendingUpdate(ofSegment index: Int) throws -> RoutePlan {
        try checkSegment(index)
        let key = segmentKey(index)
        guard pending[key] != nil else { throw PlannerError.noPendingUpdate(segment: index) }
        var plan = self
        plan.pending[key] = nil
        // "No later ride today" is remembered by the user's own leg: nothing new to say about it
        // until a ride that can be caught appears (which differs from it, so it is proposed).
        plan.dismissed[key] = pending[key].map { update in
            switch update.proposal {
            case .ride(let latest): latest
            case .nothingCatchable: update.selected
            }
        }
        return plan
    }

    /// Forgets a dismissed proposal once an edit emptied a leg it depended on: the pinned leg
    /// itself, or a leg on the side that times it (before the pin when the plan is timed
    /// forward, after it in an arrive-by plan). Dismissing empties nothing, so the recompute
    /// right after a dismissal keeps it.
    func forgettingDismissalsOfEmptiedLegs() -> RoutePlan {
        var plan = self
        for key in dismissed.keys {
            guard let index = segmentIndex(of: key) else { plan.dismissed[key] = nil; continue }
            let timing: Range<Int>
            if case .arriveBy = timePreference { timing = index..<segmentCount } else { timing = 0..<(index + 1) }
            if timing.contains(where: { legs[$0] == nil }) { plan.dismissed[key] = nil }
        }
        return plan
    }

    // MARK: - Chosen routes

    /// Whether segment `index` holds a walk or car route the user chose among its alternatives
    /// (`choosingAlternative`): its lock remembers the route's duration. Such a leg is kept when
    /// an edit asks the others again (its ends and route did not change; walk and car legs carry
    /// no times), so the user's route is never swapped for the engine's default.
    public func isChosenRoute(segment index: Int) -> Bool {
        guard let lock = lock(ofSegment: index), lock.mode != .transit, lock.departure == nil, lock.duration != nil,
              let leg = legs[index] else { return false }
        return leg.mode == lock.mode
    }

    /// Empties every leg but those in `kept` and the chosen walk or car routes.
    mutating func emptyLegs(keeping kept: Set<Int>) {
        for index in 0..<segmentCount where !kept.contains(index) && !isChosenRoute(segment: index) {
            legs[index] = nil
        }
    }

    // MARK: - Checks

    func checkSegment(_ index: Int) throws {
        guard (0..<segmentCount).contains(index) else {
            throw PlannerError.segmentIndexOutOfRange(index: index, segmentCount: segmentCount)
        }
    }

    static func checkCoordinate(_ place: Place) throws {
        guard place.coordinate.isValid else {
            throw PlannerError.invalidCoordinate(latitude: place.coordinate.latitude,
                                                 longitude: place.coordinate.longitude)
        }
    }

    /// A segment from a place to itself has no meaning (and no lock key of its own).
    static func checkNoSamePlaceTwice(_ nodes: [PlanNode], around index: Int) throws {
        for i in [index - 1, index] where i >= 0 && i + 1 < nodes.count {
            if nodes[i].place.id == nodes[i + 1].place.id {
                throw PlannerError.samePlaceTwice(placeID: nodes[i].place.id, name: nodes[i].place.name)
            }
        }
    }

    /// Why the car is not at hand at the start of segment `index`: the segment (0-based) that took
    /// the traveller away from it, the last ride since, else the walk or bike ride that left it;
    /// nil when it is at hand. After a drive the car waits where the drive ended: any other
    /// mode from there leaves it behind (a drive, a 5.9 km walk, then a drive again, issue 39).
    /// Before the first drive it waits at the origin or a walk away (where it is parked is not
    /// known): only a ride leaves it behind. A chain back where the car waits finds it again
    /// (park and ride there and back). A drive where the car is not at hand is only ever the
    /// user's, and not in their car: it leaves the car where it waits (`carWaits`).
    func carLeft(before index: Int) -> Int? { Self.carLeft(nodes: nodes, modes: modes, before: index) }

    /// `carLeft(before:)` of a chain being built (`nodes` reach at least node `index`).
    static func carLeft(nodes: [PlanNode], modes: [TravelMode], before index: Int) -> Int? {
        leftBehind(nodes: nodes, modes: modes, parkedAt: carWaits(nodes: nodes, modes: modes, before: index), before: index)
    }

    /// The node where the car waits at the start of segment `index`: where the last drive it was
    /// at hand for ended, else the origin. A drive the user set where it is not at hand (a taxi, a
    /// lift) does not bring it along (trial 59b F7: after the user's drive from a bus stop, an
    /// inserted hop drove 18 km on from there while the note said the car waits at the origin).
    static func carWaits(nodes: [PlanNode], modes: [TravelMode], before index: Int) -> Int {
        var parked = 0
        for drive in 0..<index where modes[drive] == .car
            && leftBehind(nodes: nodes, modes: modes, parkedAt: parked, before: drive) == nil {
            parked = drive + 1
        }
        return parked
    }

    /// `carLeft(before:)` with the car waiting at node `parked` (0 when it was never driven).
    private static func leftBehind(nodes: [PlanNode], modes: [TravelMode], parkedAt parked: Int, before index: Int) -> Int? {
        let away = parked..<index
        guard let left = parked == 0 ? modes[away].firstIndex(of: .transit) : away.first,
              nodes[parked].place.coordinate.distance(to: nodes[index].place.coordinate) > carWithinReach else { return nil }
        return modes[away].lastIndex(of: .transit) ?? left
    }

    /// How near the place where the car waits a node must be for the car to be at hand, in metres.
    static let carWithinReach = 100.0

    /// A stretch from a place back to the same place through stops the planner inferred only
    /// (none with a stay) goes nowhere: a ride away and a walk back, whatever its modes (the
    /// walk set by hand from the far stop then walks all the way back, as there is no stop to
    /// choose that does not). An insert, remove or move that would make one is refused, as a
    /// place twice in a row is. One stop between is not such a stretch but a detour the
    /// recompute leaves out (`removingDetours`: a walk to a stop and straight back, issue 28).
    /// `gaps`: the node positions after which the edit joined or put places; each is checked
    /// between the user's place at or before it and the next one.
    static func checkNoStretchBackToItsStart(_ nodes: [PlanNode], around gaps: [Int]) throws {
        func isVisited(_ index: Int) -> Bool { !nodes[index].isInferred || nodes[index].stay != nil }
        for gap in gaps where gap >= 0 && gap + 1 < nodes.count {
            guard let start = (0...gap).last(where: isVisited), let end = ((gap + 1)..<nodes.count).first(where: isVisited),
                  end - start > 2, !nodes[start].isCurrentLocation, !nodes[end].isCurrentLocation,
                  nodes[start].place.id == nodes[end].place.id else { continue }
            throw PlannerError.samePlaceTwice(placeID: nodes[start].place.id, name: nodes[start].place.name)
        }
    }

    /// A plan from a place back to it with only stops the planner inferred between is, without
    /// them, one segment from the place to itself (and a walk to a stop and straight back).
    static func checkGoesSomewhere(_ nodes: [PlanNode]) throws {
        let visited = nodes.filter { !$0.isInferred }
        if let first = visited.first, visited.count > 1, visited.allSatisfy({ $0.place.id == first.place.id }) {
            throw PlannerError.samePlaceTwice(placeID: first.place.id, name: first.place.name)
        }
    }

    /// The mode of two segments merged into one: a mode the user locked wins; otherwise the
    /// vehicle mode (transit over car over bike over walk), since the walks were only access to it.
    /// Without `carAtHand` (`carLeft(before:)`: the car stayed behind), the planner's drive is not taken.
    static func mergedMode(_ a: TravelMode, _ lockA: SegmentLock?, _ b: TravelMode, _ lockB: SegmentLock?,
                           carAtHand: Bool = true) -> TravelMode {
        if let lockA { return lockA.mode }
        if let lockB { return lockB.mode }
        for mode in [TravelMode.transit, .car, .bike] where (a == mode || b == mode) && (carAtHand || mode != .car) { return mode }
        return .walk
    }
}
