import Foundation
import Planner
import WireProtocol

/// The rule of every kind of plan edit: what each checks and what it changes, read from its
/// method's params. `prepare` does the work that must wait (places searched, departures asked of
/// the planner) before the plan is locked for the change; the change itself then reads its node
/// and segment numbers against the plan it is applied to, the newest one, never the copy
/// `prepare` was given. What a change does to the plan is the planner's (`RoutePlan`'s pure
/// functions); the plan service runs the edit (`PlanService.edit`, `PlanService.apply`).
extension PlanEdit: PlanEditRule {
    var name: String { method.rawValue }

    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        typealias Prepared = PlanService.Prepared
        let planner = service.planner, input = service.input, regions = service.regions, here = service.location.current?.coordinate
        let resolver = service.resolver, typedPlaces = service.typedPlaces
        switch self {
        case .insert(let params):
            let mode = params.mode.map(TravelMode.init)
            try Self.checkInsertPosition(params.after, in: current)
            let near = try await resolver.nearPlace(params.near, region: params.region)
            let resolved = try await resolver.resolve(params.place, near: near?.place.coordinate ?? current.nodes[params.after - 1].place.coordinate,
                                                      region: params.region, planRegion: regions.regionName(of: current))
            let node = resolved.node
            let typed = typedPlaces.typed(params.place, resolved: node.place)
            // Without the user's mode, each hop is walked only when walking is no slower
            // (`Planner.insertedHops`), asked of the plan as it came in; a plan whose
            // neighbours changed meanwhile keeps the split segment's mode.
            let hops = mode == nil ? try await planner.insertedHops(node, at: params.after, in: current) : []
            let stops = try? await planner.accessStops(around: node.place)  // the stops next to it are chosen again
            let neighbours = Self.neighbours(ofInsertAfter: params.after, in: current)
            return Prepared(step: .change { plan in
                try Self.checkInsertPosition(params.after, in: plan)
                let same = Self.neighbours(ofInsertAfter: params.after, in: plan) == neighbours
                let inserted = try plan.insertingNode(node, at: params.after, mode: mode,
                                                      hopModes: same && !hops.isEmpty ? hops.map(\.mode) : nil, hopNotes: hops.map(\.reason), stopsAround: stops)
                _ = try regions.planRegion(through: inserted.nodes.map(\.place))  // one region
                return inserted
            }, typed: typed.map { [$0] } ?? [], matched: [resolved] + (near.map { [$0] } ?? []),
               modeNotes: hops.compactMap { hop in hop.reason.map { "segment \(hop.segment + 1) \($0)" } })
        case .remove(let params):
            // The stops next to the node are chosen again from the neighbours it leaves.
            let shown = try input.nodeIndex(params.node, in: current)
            let stops = await planner.accessStops(aroundNeighboursOf: shown, in: current)
            return Prepared(step: .change { plan in
                try plan.removingNode(at: try input.nodeIndex(params.node, in: plan), stopsAround: stops)
            })
        case .mode(let params):
            let mode = TravelMode(params.mode)
            return Prepared(step: .change { plan in
                try plan.changingMode(ofSegment: try input.segmentIndex(params.segment, in: plan), to: mode)
            })
        case .swap:
            return Prepared(step: .change { $0.swappingEnds() })
        case .preset(let params):
            let preset = PlanPreset(params.preset)
            let access = params.access.map(AccessNeed.init)
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
                guard plan == current else { throw DaemonError.conflict("another edit changed the plan while pinning; nothing was changed, try again") }
                return pinned
            })
        case .unpin:
            let stops = await planner.accessStops(aroundStopsKeptByPinsIn: current)  // the stops a pin kept are chosen again
            return Prepared(step: .change { $0.unpinning(stopsAround: stops) })
        case .pace(let params):
            guard let wirePace = params.pace.pace else { return Prepared(step: .change { $0.cyclingPace() }) }
            let pace = WalkingPace(wirePace)
            return Prepared(step: .change { $0.settingPace(pace) })
        case .access(let params):
            let access = AccessNeed(params.access)
            return Prepared(step: .change { $0.settingAccess(access) })
        case .time(let params):
            let given = [params.now == true, params.at != nil, params.arriveBy != nil].filter { $0 }.count
            guard given == 1 else { throw DaemonError.invalidParams("give exactly one of now, at or arrive_by") }
            return Prepared(step: .change { plan in
                // A bare HH:MM falls on the plan's own day, in its region's zone.
                let preference = params.now == true ? .leaveNow
                    : try input.timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: regions.timeZone(of: plan),
                                               day: input.planDay(plan))
                return plan.settingTimePreference(preference)
            })
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
        case .refresh(let params):
            return try await PlanRefreshEdit(planID: params.id).prepare(on: current, with: service)
        case .stay(let params):
            let given = [params.durationS != nil, params.until != nil, params.clear == true].filter { $0 }.count
            guard given == 1 else { throw DaemonError.invalidParams("give exactly one of duration_s, until or clear") }
            if let seconds = params.durationS, !(seconds.isFinite && seconds >= 0) {
                throw DaemonError.invalidParams("duration_s must be 0 or more seconds, got \(seconds)")
            }
            return Prepared(step: .change { plan in
                let index = try input.nodeIndex(params.node, in: plan)
                let stay: NodeStay? = if let seconds = params.durationS {
                    .duration(seconds)
                } else if let until = params.until {
                    // A bare HH:MM is the next such time after the plan reaches the node (00:40 on a
                    // node reached at 23:58 is the next night's), on the plan's day when it has no time.
                    .until(try plan.schedule()[index].map {
                        try input.nextTime(until, param: "until", timeZone: regions.timeZone(of: plan), after: $0)
                    } ?? input.time(until, param: "until", timeZone: regions.timeZone(of: plan), day: input.planDay(plan)))
                } else {
                    nil
                }
                return try plan.settingStay(stay, atNode: index)
            })
        case .unlock(let params):
            return Prepared(step: .change { plan in try plan.unlocking(segment: try input.segmentIndex(params.segment, in: plan)) })
        case .rename(let params):
            let title = try PlanService.title(params.title)
            // A change (the title is in the edit's first write, and in the plan the next edit
            // reads) that keeps the plan: only legs another edit left empty are computed.
            return Prepared(step: .change { $0 }, title: title)
        case .move(let params):
            // The node as numbered now only says where to search near; the move takes the node
            // of that number in the plan it changes.
            let shownNode = try input.nodeIndex(params.node, in: current)
            let near = try await resolver.nearPlace(params.near, region: params.region)
            let resolved = try await resolver.resolve(params.place, near: near?.place.coordinate ?? current.nodes[shownNode].place.coordinate,
                                                      region: params.region,
                                                      planRegion: regions.regionName(of: current))
            let node = resolved.node
            let stops = try? await planner.accessStops(around: node.place)  // the stops next to it are chosen again
            return Prepared(step: .change { plan in
                let moved = try plan.movingNode(at: try input.nodeIndex(params.node, in: plan), to: node.place, stopsAround: stops)
                _ = try regions.planRegion(through: moved.nodes.map(\.place))  // one region, as for insert
                return moved
            }, matched: [resolved] + (near.map { [$0] } ?? []))
        case .choose(let params):
            let segment = try input.segmentIndex(params.segment, in: current)
            let count = try PlanService.count(params.count)
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
                option = try await Self.seenOption(params, segment: segment, departure: seen, in: options, count: count, of: current, zone: zone,
                                                service: service)
            } else {
                guard options.indices.contains(params.option - 1) else {
                    throw DaemonError.invalidParams("option \(params.option) does not exist: segment \(params.segment) has \(options.count)")
                }
                option = options[params.option - 1]
            }
            let chosen = try current.choosingAlternative(option, ofSegment: segment)
            return Prepared(step: .change { plan in
                guard plan == current else { throw DaemonError.conflict("another edit changed the plan while choosing; nothing was changed, try again") }
                return chosen
            })
        }
    }

    /// `plan.insert`'s `after`: a node of the plan (after the last, the place becomes the destination).
    static func checkInsertPosition(_ after: Int, in plan: RoutePlan) throws {
        guard (1...plan.nodes.count).contains(after) else {
            throw DaemonError.invalidParams("after must be 1 to \(plan.nodes.count) (after the last node, the place becomes the destination)")
        }
    }

    /// The places either side of where `plan.insert` puts a node after node `after` (1-based),
    /// and the mode of the segment it splits: the modes chosen for the new hops hold only
    /// while these are the same.
    static func neighbours(ofInsertAfter after: Int, in plan: RoutePlan) -> [String] {
        let places = [after - 1, after].filter(plan.nodes.indices.contains).map { plan.nodes[$0].place.id }
        let split = min(after - 1, plan.segmentCount - 1)
        return places + (plan.modes.indices.contains(split) ? [plan.modes[split].rawValue] : [])
    }

    /// The option of `plan.choose` identified by its trips, else its departure (`Params.PlanChoose`):
    /// option N when it is that one, else the one in the list that is, else the one asked from
    /// that departure; `conflict` when none is (nothing changes).
    private static func seenOption(_ params: Params.PlanChoose, segment: Int, departure: Date?, in options: [RouteLeg], count: Int,
                                   of plan: RoutePlan, zone: TimeZone, service: PlanService) async throws -> RouteLeg {
        let planner = service.planner, input = service.input
        // The trips name a ride whatever the walk to it takes (an earlier pace edit changes when
        // the leg leaves the door); without them, the departure does.
        func isSeen(_ leg: RouteLeg) -> Bool {
            if let trips = params.tripIds { return trips == leg.tripIDs }
            return departure.map { time in leg.departure.map { abs($0.timeIntervalSince(time)) < 1 } ?? false } ?? false
        }
        let described = [departure.map { "leaving \(WireTime.string(from: $0, timeZone: zone))" },
                         params.tripIds.map { "on trips \($0.joined(separator: ", "))" }].compactMap { $0 }.joined(separator: " ")
        if options.indices.contains(params.option - 1), isSeen(options[params.option - 1]) { return options[params.option - 1] }
        if let found = options.first(where: isSeen) { return found }
        if let departure,
           let found = try await planner.alternatives(for: plan, segment: segment, count: count, at: departure).first(where: isSeen) {
            // Asked from the departure the user saw: an option leaving before the plan starts
            // (the plan's time moved past it since) is no longer offered.
            if let start = plan.earliestDeparture(now: input.clock.now()), let leaves = found.departure,
               leaves < start.addingTimeInterval(-1) {
                throw DaemonError.conflict("segment \(params.segment) has no option \(described) any more: it leaves before the plan "
                                           + "starts at \(WireTime.string(from: start, timeZone: zone)); list them again with plan.alternatives")
            }
            return found
        }
        throw DaemonError.conflict("segment \(params.segment) has no option \(described) any more (option \(params.option) was listed so): "
                                   + "list them again with plan.alternatives")
    }
}
