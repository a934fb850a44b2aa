import Foundation
import Planner
import WireProtocol

/// Every `plan.*` edit, and `plan.edits` (a list of them, all or none). Each edit validates and
/// applies its change (bad input changes nothing), then computes only the legs the change
/// emptied, and answers with the updated plan. One `prepare` turns any `PlanEdit` into its
/// change, used both by the single methods and by `plan.edits`.
struct PlanEditMethods: Sendable {
    let planner: Planner
    let plans: PlanCoordinator
    let resolver: PlaceResolver
    let regions: RegionRegistry
    let location: LocationState
    let input: WireInput
    let typedPlaces: TypedPlaceHistory

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planInsert) { params, _ in try await single(.insert(params), params.expectedGeneration) }
        table.register(Endpoints.planRemove) { params, _ in try await single(.remove(params), params.expectedGeneration) }
        table.register(Endpoints.planMode) { params, _ in try await single(.mode(params), params.expectedGeneration) }
        table.register(Endpoints.planSwap) { params, _ in try await single(.swap(params), params.expectedGeneration) }
        table.register(Endpoints.planPreset) { params, _ in try await single(.preset(params), params.expectedGeneration) }
        table.register(Endpoints.planRebuild) { params, _ in try await single(.rebuild(params), params.expectedGeneration) }
        table.register(Endpoints.planPin) { params, _ in try await single(.pin(params), params.expectedGeneration) }
        table.register(Endpoints.planUnpin) { params, _ in try await single(.unpin(params), params.expectedGeneration) }
        table.register(Endpoints.planPace) { params, _ in try await single(.pace(params), params.expectedGeneration) }
        table.register(Endpoints.planAccess) { params, _ in try await single(.access(params), params.expectedGeneration) }
        table.register(Endpoints.planTime) { params, _ in try await single(.time(params), params.expectedGeneration) }
        table.register(Endpoints.planRefine) { params, _ in try await single(.refine(params), params.expectedGeneration) }
        table.register(Endpoints.planAccept) { params, _ in try await single(.accept(params), params.expectedGeneration) }
        table.register(Endpoints.planDismiss) { params, _ in try await single(.dismiss(params), params.expectedGeneration) }
        table.register(Endpoints.planRefresh) { params, _ in try await single(.refresh(params), params.expectedGeneration) }
        table.register(Endpoints.planEdits) { params, _ in try await atomically(params) }
    }

    /// What an edit does to a plan: a change whose emptied legs are then computed, or a
    /// computation of its own (presets, rebuild, refine); and the places typed as text in it.
    struct Prepared: Sendable {
        enum Step: Sendable {
            case change(@Sendable (RoutePlan) throws -> RoutePlan)
            case compute(@Sendable (RoutePlan) async throws -> LegComputation)
        }
        var step: Step
        var typed: [TypedPlaceHistory.Typed] = []
        /// The plan's new title (`plan.rename`).
        var title: String?
    }

    /// Validates `edit` against `current` (the plan it will be applied to) and resolves what it
    /// names (places, times, a pinned departure).
    func prepare(_ edit: PlanEdit, on current: RoutePlan) async throws -> Prepared {
        let planner = planner, input = input, here = location.current?.coordinate
        switch edit {
        case .insert(let params):
            let mode = params.mode.map(TravelMode.init)
            guard (1...current.nodes.count).contains(params.after) else {
                throw DaemonError.invalidParams("after must be 1 to \(current.nodes.count) (after the last node, the place becomes the destination)")
            }
            let near = try await resolver.nearPoint(params.near, region: params.region)
            let node = try await resolver.resolve(params.place, near: near ?? current.nodes[params.after - 1].place.coordinate,
                                            region: params.region, planRegion: regions.regionName(of: current))
            let typed = typedPlaces.typed(params.place, resolved: node.place)
            let regions = regions
            return Prepared(step: .change { plan in
                let inserted = try plan.insertingNode(node, at: params.after, mode: mode)
                _ = try regions.planRegion(through: inserted.nodes.map(\.place))  // the plan it applies to
                return inserted
            }, typed: typed.map { [$0] } ?? [])
        case .remove(let params):
            return Prepared(step: .change { plan in try plan.removingNode(at: try input.nodeIndex(params.node, in: plan)) })
        case .mode(let params):
            let mode = TravelMode(params.mode)
            return Prepared(step: .change { plan in
                try plan.changingMode(ofSegment: try input.segmentIndex(params.segment, in: plan), to: mode)
            })
        case .swap:
            return Prepared(step: .change { $0.swappingEnds() })
        case .preset(let params):
            let preset = PlanPreset(params.preset)
            let access = params.access.map(WireDocuments.accessNeed)
            return Prepared(step: .compute { plan in
                // A new access setting first: the preset then builds its legs with it.
                let plan = access.map(plan.settingAccess) ?? plan
                return LegComputation(plan: try await planner.applyingPreset(preset, to: plan, currentLocation: here),
                                      failures: [], queryCount: 0)
            })
        case .rebuild(let params):
            let preset = PlanPreset(params.preset)
            return Prepared(step: .compute { plan in
                LegComputation(plan: try await planner.rebuild(plan, preset: preset, currentLocation: here), failures: [], queryCount: 0)
            })
        case .pin(let params):
            let segment = try input.segmentIndex(params.segment, in: current)
            let zone = regions.timeZone(of: current)
            let departure = try params.time.map {
                try input.time($0, param: "time", timeZone: zone, day: current.schedule()[segment] ?? input.planDay(current))
            }
            _ = try regions.requireRegions()
            let pinned: RoutePlan
            if let line = params.line {
                pinned = try await planner.pinning(current, segment: segment, line: line, at: departure)
            } else if let departure {
                pinned = try await planner.pinning(current, segment: segment, at: departure)
            } else {
                throw DaemonError.invalidParams("give time, line, or both")
            }
            return Prepared(step: .change { plan in
                guard plan == current else { throw DaemonError.invalidParams("the plan changed while pinning; try again") }
                return pinned
            })
        case .unpin:
            return Prepared(step: .change { $0.unpinning() })
        case .pace(let params):
            guard let wirePace = params.pace.pace else { return Prepared(step: .change { $0.cyclingPace() }) }
            let pace = WalkingPace(wirePace)
            return Prepared(step: .change { $0.settingPace(pace) })
        case .access(let params):
            let access = WireDocuments.accessNeed(params.access)
            return Prepared(step: .change { $0.settingAccess(access) })
        case .time(let params):
            let zone = regions.timeZone(of: current)
            let given = [params.now == true, params.at != nil, params.arriveBy != nil].filter { $0 }.count
            guard given == 1 else { throw DaemonError.invalidParams("give exactly one of now, at or arrive_by") }
            let preference = params.now == true ? .leaveNow
                : try input.timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: zone, day: input.planDay(current))
            return Prepared(step: .change { $0.settingTimePreference(preference) })
        case .refine(let params):
            let depth = params.depth ?? 2
            guard (1...4).contains(depth) else { throw DaemonError.invalidParams("depth must be 1 to 4, got \(depth)") }
            return Prepared(step: .compute { plan in
                let computed = try await planner.computeLegsReporting(plan, currentLocation: here)
                let refined = try await planner.refine(computed.plan, depth: depth)
                return try await planner.computeLegsReporting(refined, currentLocation: here)
            })
        case .accept(let params):
            return Prepared(step: .change { plan in
                try plan.acceptingPendingUpdate(ofSegment: try input.segmentIndex(params.segment, in: plan))
            })
        case .dismiss(let params):
            return Prepared(step: .change { plan in
                try plan.dismissingPendingUpdate(ofSegment: try input.segmentIndex(params.segment, in: plan))
            })
        case .refresh:
            // Every leg is asked again with the current routing data (e.g. after a region was
            // re-imported with a newer feed). Modes, locks and inserted stops stay; a pinned
            // departure is re-found by its trip or fingerprint, or kept with a pending update.
            return Prepared(step: .change { $0.refreshing() })
        case .stay(let params):
            let index = try input.nodeIndex(params.node, in: current)
            let given = [params.durationS != nil, params.until != nil, params.clear == true].filter { $0 }.count
            guard given == 1 else { throw DaemonError.invalidParams("give exactly one of duration_s, until or clear") }
            let stay: NodeStay?
            if let seconds = params.durationS {
                guard seconds.isFinite, seconds >= 0 else {
                    throw DaemonError.invalidParams("duration_s must be 0 or more seconds, got \(seconds)")
                }
                stay = .duration(seconds)
            } else if let until = params.until {
                stay = .until(try input.time(until, param: "until", timeZone: regions.timeZone(of: current),
                                             day: current.schedule()[index] ?? input.planDay(current)))
            } else {
                stay = nil
            }
            return Prepared(step: .change { try $0.settingStay(stay, atNode: index) })
        case .unlock(let params):
            return Prepared(step: .change { plan in try plan.unlocking(segment: try input.segmentIndex(params.segment, in: plan)) })
        case .rename(let params):
            let title = try DayPlanMethods.title(params.title)
            // Only the title changes: no leg is asked again.
            return Prepared(step: .compute { LegComputation(plan: $0, failures: [], queryCount: 0) }, title: title)
        case .move(let params):
            let index = try input.nodeIndex(params.node, in: current)
            let near = try await resolver.nearPoint(params.near, region: params.region)
            let node = try await resolver.resolve(params.place, near: near ?? current.nodes[index].place.coordinate,
                                            region: params.region, planRegion: regions.regionName(of: current))
            let regions = regions
            return Prepared(step: .change { plan in
                let moved = try plan.movingNode(at: index, to: node.place)
                _ = try regions.planRegion(through: moved.nodes.map(\.place))  // one region, as for insert
                return moved
            })
        case .choose(let params):
            let segment = try input.segmentIndex(params.segment, in: current)
            let count = try DayPlanMethods.count(params.count)
            guard (1...count).contains(params.option) else {
                throw DaemonError.invalidParams("option must be 1 to \(count), got \(params.option)")
            }
            _ = try regions.requireRegions()
            let zone = regions.timeZone(of: current)
            let seen = try params.departure.map {
                try input.time($0, param: "departure", timeZone: zone, day: current.schedule()[segment] ?? input.planDay(current))
            }
            let options = try await planner.alternatives(for: current, segment: segment, count: count)
            let option: RouteLeg
            if seen != nil || params.tripIds != nil {
                option = try await seenOption(params, segment: segment, departure: seen, in: options, count: count, of: current, zone: zone)
            } else {
                guard options.indices.contains(params.option - 1) else {
                    throw DaemonError.invalidParams("option \(params.option) does not exist: segment \(params.segment) has \(options.count)")
                }
                option = options[params.option - 1]
            }
            let chosen = try current.choosingAlternative(option, ofSegment: segment)
            return Prepared(step: .change { plan in
                guard plan == current else { throw DaemonError.invalidParams("the plan changed while choosing; try again") }
                return chosen
            })
        }
    }

    /// The option of `plan.choose` identified by its trips, else its departure (`Params.PlanChoose`):
    /// option N when it is that one, else the one in the list that is, else the one asked from
    /// that departure; `conflict` when none is (nothing changes).
    private func seenOption(_ params: Params.PlanChoose, segment: Int, departure: Date?, in options: [RouteLeg], count: Int,
                            of plan: RoutePlan, zone: TimeZone) async throws -> RouteLeg {
        // The trips name a ride whatever the walk to it takes (an earlier pace edit changes when
        // the leg leaves the door); without them, the departure does.
        func isSeen(_ leg: RouteLeg) -> Bool {
            if let trips = params.tripIds { return trips == leg.tripIDs }
            return departure.map { time in leg.departure.map { abs($0.timeIntervalSince(time)) < 1 } ?? false } ?? false
        }
        if options.indices.contains(params.option - 1), isSeen(options[params.option - 1]) { return options[params.option - 1] }
        if let found = options.first(where: isSeen) { return found }
        if let departure,
           let found = try await planner.alternatives(for: plan, segment: segment, count: count, at: departure).first(where: isSeen) {
            return found
        }
        let described = [departure.map { "leaving \(WireTime.string(from: $0, timeZone: zone))" },
                         params.tripIds.map { "on trips \($0.joined(separator: ", "))" }].compactMap { $0 }.joined(separator: " ")
        throw DaemonError.conflict("segment \(params.segment) has no option \(described) any more (option \(params.option) was listed so): "
                                   + "list them again with plan.alternatives")
    }

    /// An edit whose legs are then filled by `computeLegs` (only the emptied ones are queried).
    func edit(_ id: Int64, change: @escaping @Sendable (RoutePlan) throws -> RoutePlan) async throws -> PlanDocument {
        let planner = planner, here = location.current?.coordinate
        return try await edit(id, change: change) { plan in
            try await planner.computeLegsReporting(plan, currentLocation: here)
        }
    }

    /// An edit with its own computation; `title` replaces the plan's title.
    func edit(_ id: Int64, title: String? = nil, change: @escaping @Sendable (RoutePlan) throws -> RoutePlan,
              compute: @escaping @Sendable (RoutePlan) async throws -> LegComputation) async throws -> PlanDocument {
        _ = try regions.requireRegions()
        let outcome = try await plans.edit(id: id, title: title, change: change, compute: compute)
        return WireDocuments.plan(outcome, regions: regions, now: input.clock.now())
    }

    /// One edit: applied and written at once, then its emptied legs computed (`PlanCoordinator.edit`,
    /// which also decides the title: `RoutePlan.title(_:after:)`).
    func single(_ edit: PlanEdit, _ expectedGeneration: Int64?) async throws -> PlanDocument {
        let shown = try await plans.show(id: edit.planID)
        let current = shown.plan
        let prepared = try await prepare(edit, on: current)
        _ = try regions.requireRegions()
        let planner = planner, here = location.current?.coordinate
        let searches = typedPlaces.entries(prepared.typed)
        let title = prepared.title
        let outcome = switch prepared.step {
        case .change(let change):
            try await plans.edit(id: edit.planID, title: title, expectedGeneration: expectedGeneration, searches: searches,
                                 change: change) { plan in
                try await planner.computeLegsReporting(plan, currentLocation: here)
            }
        case .compute(let compute):
            try await plans.edit(id: edit.planID, title: title, expectedGeneration: expectedGeneration, searches: searches,
                                 change: { $0 }, compute: compute)
        }
        return WireDocuments.plan(outcome, regions: regions, now: input.clock.now())
    }

    /// `plan.edits`: every edit applied in order to a copy of the plan, then one computation of
    /// the legs still empty, stored as one new generation; the first edit that fails stops it
    /// all (nothing stored, the error names that edit).
    private func atomically(_ params: Params.PlanEdits) async throws -> PlanDocument {
        guard !params.edits.isEmpty else { throw DaemonError.invalidParams("edits must not be empty") }
        for (index, edit) in params.edits.enumerated() {
            let name = "edit \(index + 1) (\(edit.method.rawValue))"
            guard edit.planID == params.id else { throw DaemonError.invalidParams("\(name) names plan \(edit.planID), not plan \(params.id)") }
            guard edit.expectedGeneration == nil else {
                throw DaemonError.invalidParams("\(name) has its own expected_generation: give it once, beside edits")
            }
        }
        _ = try regions.requireRegions()
        let planner = planner, here = location.current?.coordinate, methods = self, typedPlaces = typedPlaces
        let outcome = try await plans.applyAtomically(id: params.id, expectedGeneration: params.expectedGeneration,
                                                               dryRun: params.dryRun == true) { original, originalTitle in
            var plan = original
            var typed: [TypedPlaceHistory.Typed] = []
            var title = originalTitle
            for (index, edit) in params.edits.enumerated() {
                do {
                    let prepared = try await methods.prepare(edit, on: plan)
                    let before = plan
                    switch prepared.step {
                    case .change(let change): plan = try change(plan)
                    case .compute(let compute): plan = try await compute(plan).plan
                    }
                    typed += prepared.typed
                    // Edit by edit, as the same edits one at a time would title it.
                    title = prepared.title ?? before.title(title, after: plan)
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    throw Self.failure(of: edit, number: index + 1, error)
                }
            }
            let computed = try await planner.computeLegsReporting(plan, currentLocation: here)
            return (computed, typedPlaces.entries(typed), plan.title(title, after: computed.plan))
        }
        return WireDocuments.plan(outcome, regions: regions, now: input.clock.now())
    }

    /// The edit's own error (its word kept), named by its number and method.
    static func failure(of edit: PlanEdit, number: Int, _ error: Error) -> WireError {
        var wire = RequestDispatcher.wireError(from: error)
        wire.message = "edit \(number) (\(edit.method.rawValue)): \(wire.message); nothing was changed"
        var fields: [String: JSONValue] = [:]
        if case .object(let detail)? = wire.data { fields = detail }
        fields["edit"] = .number(Double(number))
        fields["method"] = .string(edit.method.rawValue)
        wire.data = .object(fields)
        return wire
    }
}
