import Foundation

/// Presets on an existing plan, as the app's preset buttons: each stretch between two of the
/// user's own nodes is rebuilt from its two ends with the preset's mode (transit gets its
/// nearest stops), so walk → transit → walk becomes car, and back, and `.fastest` can pick
/// transit. A stretch with a decision of the user's in it (a lock, a pin) keeps its stops and
/// its locked modes; its other segments take the preset's mode (`RoutePlan.applyingPreset`).
extension Planner {
    /// Applies `preset` and computes the emptied legs. `.fastest` builds the walk, transit and
    /// car variants, computes each, and keeps the quickest complete one; when none is complete it
    /// falls back to the offline guess.
    public func applyingPreset(_ preset: PlanPreset, to plan: RoutePlan,
                               currentLocation: Coordinate? = nil) async throws -> RoutePlan {
        // The preset decides the modes again: what the planner said of them before goes.
        let plan = plan.forgettingModeNotes()
        guard preset == .fastest else {
            return try await computedWithPreset(rebuildingStretches(of: plan, with: preset), currentLocation: currentLocation)
        }
        var best: RoutePlan?
        for variant in PlanPreset.fastestCandidates.compactMap({ PlanPreset(rawValue: $0.rawValue) }) {
            let computed = try await computedWithPreset(rebuildingStretches(of: plan, with: variant),
                                                        currentLocation: currentLocation, leavingNoCarForGood: true)
            guard let time = computed.totalTravelTime else { continue }
            if let current = best?.totalTravelTime, current <= time { continue }
            best = computed
        }
        if let best { return best.notingStretchesTheCarIsNotAtHandFor() }
        return try await judgingDrivesLeavingTheCarForGood(
            in: try await computeLegsReporting(plan.applyingPreset(.fastest), currentLocation: currentLocation),
            currentLocation: currentLocation).plan
    }

    /// The legs of a plan a preset rebuilt; a stretch the transit preset rides is walked where
    /// walking is no slower (`walkingHopsNoSlower`). A drive of the planner's that the preset's
    /// own drives before it left without the car (a stretch it kept as it was, driven when the
    /// car was a walk away before the first drive: seeds 8 and 57) is walked or ridden by the walk
    /// rule, as after any edit (`judgingDrivesWithoutTheCar`). For `.fastest`'s variants
    /// (`leavingNoCarForGood`), so is a drive of the planner's that leaves the car where it is
    /// never driven again (`judgingDrivesLeavingTheCarForGood`): park and ride is the user's choice.
    private func computedWithPreset(_ rebuilt: RoutePlan, currentLocation: Coordinate?,
                                    leavingNoCarForGood: Bool = false) async throws -> RoutePlan {
        var computed = try await judgingDrivesWithoutTheCar(in: try await computeLegsReporting(rebuilt, currentLocation: currentLocation),
                                                            currentLocation: currentLocation)
        if leavingNoCarForGood {
            computed = try await judgingDrivesLeavingTheCarForGood(in: computed, currentLocation: currentLocation)
        }
        guard rebuilt.modes.contains(.transit) else { return computed.plan }
        return try await walkingHopsNoSlower(in: computed, currentLocation: currentLocation).plan
    }

    /// The plan with every stretch between two of the user's nodes rebuilt from its ends with
    /// `preset`'s mode, and the stretches holding a lock or a pin given its mode segment by
    /// segment. A stretch whose rebuilt form is the one it has keeps its legs; with `.car`, so does
    /// every stretch the car is not at hand for (`RoutePlan.carLeft(before:)`: a ride or a walk that
    /// stays left it behind). Locks, the pin and pending
    /// updates of the segments that remain stay. `preset` has a mode (not `.fastest`).
    func rebuildingStretches(of plan: RoutePlan, with preset: PlanPreset) async throws -> RoutePlan {
        guard let mode = preset.mode else { return plan.applyingPreset(preset) }
        let decided = Set(plan.stretches().filter { plan.holdsDecision($0) }.flatMap { Array($0) })
        let partly = await leavingOutPresetRidesWalkedBack(
            in: await choosingStopsAgainAcrossPresetWalks(in: plan.applyingPreset(preset, toSegments: decided)))
        var nodes: [PlanNode] = [partly.nodes[0]], modes: [TravelMode] = [], legs: [RouteLeg?] = []
        var origins: [Int?] = []  // the segments kept continue their decisions; rebuilt ones are new
        var carNotAtHand: [(segment: Int, left: Int)] = []  // stretches a drive preset left, and why
        for stretch in partly.stretches() {
            let from = partly.nodes[stretch.lowerBound], to = partly.nodes[stretch.upperBound]
            // Where the car was left behind (a decided stretch kept a ride or a walk) it is not at
            // hand: a drive preset leaves the stretches after it as they are, and says so (trial
            // 50: the preset seemed to do nothing).
            let carLeft = mode == .car ? RoutePlan.carLeft(nodes: nodes, modes: modes, before: modes.count) : nil
            if partly.holdsDecision(stretch) || carLeft != nil {
                if !partly.holdsDecision(stretch), let carLeft { carNotAtHand.append((modes.count, carLeft)) }
                nodes += partly.nodes[(stretch.lowerBound + 1)...stretch.upperBound]
                modes += partly.modes[stretch]
                legs += partly.legs[stretch]
                origins += stretch.map { Optional($0) }
                continue
            }
            let rebuilt = try await initialPlan(from: from, to: to, mode: mode, timePreference: plan.timePreference,
                                                pace: plan.pace, access: plan.access, currentLocation: nil)
            let same = rebuilt.modes == Array(partly.modes[stretch])
                && rebuilt.nodes.map(\.place.id) == partly.nodes[stretch.lowerBound...stretch.upperBound].map(\.place.id)
            nodes += same ? Array(partly.nodes[(stretch.lowerBound + 1)...stretch.upperBound]) : Array(rebuilt.nodes.dropFirst())
            modes += rebuilt.modes
            legs += same ? Array(partly.legs[stretch]) : Array(repeating: nil, count: rebuilt.segmentCount)
            origins += same ? stretch.map { Optional($0) } : Array(repeating: nil, count: rebuilt.segmentCount)
        }
        var result = partly
        result.replaceStructure(nodes: nodes, modes: modes, legs: legs, origins: origins)
        for kept in carNotAtHand {
            result.setModeNote(ModeNote(.notDriven, carLeftOnSegment: kept.left, carLeftBy: result.modes[kept.left]),
                               ofSegment: kept.segment)
        }
        return result
    }
}

extension Planner {
    /// A stretch the user decided in keeps its ride, and a ride of the planner's next to it may
    /// have become a walk (a drive) to or from a stop inferred for another place (issue 39 item 4:
    /// 6.5 km from Ratina to Hervanta P). Each street segment of such a stretch chooses the
    /// inferred stop at its end again from the place at its other end, as `plan mode` does
    /// (`RoutePlan.changingMode(ofSegment:to:stopsAround:)`); a stop with none to take its place is kept.
    /// A walk the user set by hand is one too: the lock is on its mode, the stop is the planner's,
    /// and the preset may have made a ride from a stop inferred long before (6.7 km from
    /// Rautatieasema to Hervanta P for a ride to Tampere-talo). A walk or drive route the user
    /// chose among alternatives (its lock holds the route's duration) or pinned keeps its ends.
    func choosingStopsAgainAcrossPresetWalks(in plan: RoutePlan) async -> RoutePlan {
        var result = plan
        for stretch in plan.stretches() where plan.holdsDecision(stretch) {
            for street in stretch where plan.modes[street] != .transit && !plan.isPinned(segment: street)
                && plan.lock(ofSegment: street).map({ $0.duration == nil && $0.departure == nil }) != false {
                let rideAfter = street + 1 < plan.segmentCount && plan.nodes[street + 1].isInferred && plan.modes[street + 1] == .transit
                let rideBefore = street > 0 && plan.nodes[street].isInferred && plan.modes[street - 1] == .transit
                guard rideAfter || rideBefore else { continue }
                // Node indices do not change: a stop is replaced or kept, never left out here.
                result = result.choosingAccessStopsAgain(across: street, from: await accessStops(aroundEndsOfSegment: street, in: result),
                                                         leavingOutWhenNone: false)
            }
        }
        return result
    }
}

extension RoutePlan {
    /// The segment ranges between consecutive nodes of the user's (every node not inferred,
    /// and both ends): the stretches a preset rebuilds.
    func stretches() -> [Range<Int>] {
        let own = nodes.indices.filter { !nodes[$0].isInferred || $0 == 0 || $0 == nodes.count - 1 }
        return zip(own, own.dropFirst()).map { $0..<$1 }
    }

    /// The plan without the mode notes of its unlocked segments (a preset chooses those modes
    /// again); a locked segment's note is about the user's own choice and stays.
    func forgettingModeNotes() -> RoutePlan {
        var plan = self
        for index in 0..<segmentCount where !isLocked(segment: index) { plan.setModeNote(nil, ofSegment: index) }
        return plan
    }

    /// `.fastest`'s answer saying why it drives none of a stretch where the car variant could not
    /// drive: the car is not at hand there (a stretch the user decided in left it behind), as the
    /// car preset says it ("not driven: the car is not at hand after the ride on segment 1"; trial
    /// 56 finding 11: the transit variant won and nothing was said). Going through the stretches
    /// in order, each one the user decided nothing in is driven where the car is at hand, as the
    /// car variant does; one it is not at hand for and this plan does not drive says so on its
    /// first segment (after its own reason, as `judgingDrivesWithoutTheCar` says it).
    func notingStretchesTheCarIsNotAtHandFor() -> RoutePlan {
        var noted = self, driven = modes
        for stretch in stretches() where !holdsDecision(stretch) {
            guard let left = Self.carLeft(nodes: nodes, modes: driven, before: stretch.lowerBound) else {
                for segment in stretch { driven[segment] = .car }
                continue
            }
            guard !modes[stretch].contains(.car) else { continue }
            var note = note(ofSegment: stretch.lowerBound)?.mode ?? ModeNote(.notDriven)
            note.carLeftOnSegment = left
            note.carLeftBy = modes[left]
            noted.placeModeNote(note, onSegment: stretch.lowerBound)
        }
        return noted
    }

    /// Whether a segment of `stretch` is locked or pinned: the user decided something in it.
    func holdsDecision(_ stretch: Range<Int>) -> Bool {
        stretch.contains { isLocked(segment: $0) || isPinned(segment: $0) }
    }
}
