import Foundation
import Planner
import WireProtocol

extension DaemonServices {
    /// Every `plan.*` edit. Each validates and applies its change (bad input changes nothing),
    /// then computes only the legs the change emptied, and answers with the updated plan.
    func planEditHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .planInsert: { [self] context in
                let params = try context.params(Params.PlanInsert.self)
                let mode = try params.mode.map { try self.mode($0) }
                let current = try await plans.show(id: params.id).plan
                guard (1..<current.nodes.count).contains(params.after) else {
                    throw DaemonError.invalidParams("after must be 1 to \(current.nodes.count - 1) (a new stop goes between two nodes)")
                }
                let near = try params.near.map { try resolver.resolve($0, region: params.region).place.coordinate }
                let node = try resolver.resolve(params.place, near: near ?? current.nodes[params.after - 1].place.coordinate,
                                                region: params.region)
                return try await edit(params.id) { try $0.insertingNode(node, at: params.after, mode: mode) }
            },
            .planRemove: { [self] context in
                let params = try context.params(Params.PlanNode.self)
                return try await edit(params.id) { plan in try plan.removingNode(at: try self.nodeIndex(params.node, in: plan)) }
            },
            .planMode: { [self] context in
                let params = try context.params(Params.PlanMode.self)
                let mode = try self.mode(params.mode)
                return try await edit(params.id) { plan in
                    try plan.changingMode(ofSegment: try self.segmentIndex(params.segment, in: plan), to: mode)
                }
            },
            .planSwap: { [self] context in
                let id = try context.params(Params.PlanID.self).id
                return try await edit(id) { $0.swappingEnds() }
            },
            .planPreset: { [self] context in
                let params = try context.params(Params.PlanPreset.self)
                let preset = try preset(params.preset)
                let planner = planner, here = location.current?.coordinate
                return try await edit(params.id, change: { $0 }) { plan in
                    LegComputation(plan: try await planner.applyingPreset(preset, to: plan, currentLocation: here),
                                   failures: [], queryCount: 0)
                }
            },
            .planRebuild: { [self] context in
                let params = try context.params(Params.PlanPreset.self)
                let preset = try preset(params.preset)
                let planner = planner, here = location.current?.coordinate
                return try await edit(params.id, change: { $0 }) { plan in
                    LegComputation(plan: try await planner.rebuild(plan, preset: preset, currentLocation: here),
                                   failures: [], queryCount: 0)
                }
            },
            .planPin: { [self] context in
                let params = try context.params(Params.PlanPin.self)
                let current = try await plans.show(id: params.id).plan
                let segment = try self.segmentIndex(params.segment, in: current)
                let zone = timeZone(of: current)
                let departure = try time(params.time, param: "time", timeZone: zone,
                                         day: current.schedule()[segment] ?? planDay(current))
                _ = try regions.requireRegions()
                let pinned = try await planner.pinning(current, segment: segment, at: departure)
                return try await edit(params.id) { plan in
                    guard plan == current else { throw DaemonError.invalidParams("the plan changed while pinning; try again") }
                    return pinned
                }
            },
            .planUnpin: { [self] context in
                let id = try context.params(Params.PlanID.self).id
                return try await edit(id) { $0.unpinning() }
            },
            .planPace: { [self] context in
                let params = try context.params(Params.PlanPace.self)
                if params.pace == "next" { return try await edit(params.id) { $0.cyclingPace() } }
                let pace = try pace(params.pace)
                return try await edit(params.id) { $0.settingPace(pace) }
            },
            .planTime: { [self] context in
                let params = try context.params(Params.PlanTime.self)
                let current = try await plans.show(id: params.id).plan
                let zone = timeZone(of: current)
                let given = [params.now == true, params.at != nil, params.arriveBy != nil].filter { $0 }.count
                guard given == 1 else { throw DaemonError.invalidParams("give exactly one of now, at or arrive_by") }
                let preference = params.now == true ? .leaveNow
                    : try timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: zone, day: planDay(current))
                return try await edit(params.id) { $0.settingTimePreference(preference) }
            },
            .planRefine: { [self] context in
                let params = try context.params(Params.PlanRefine.self)
                let depth = params.depth ?? 2
                guard (1...4).contains(depth) else { throw DaemonError.invalidParams("depth must be 1 to 4, got \(depth)") }
                let planner = planner, here = location.current?.coordinate
                return try await edit(params.id, change: { $0 }) { plan in
                    let computed = try await planner.computeLegsReporting(plan, currentLocation: here)
                    let refined = try await planner.refine(computed.plan, depth: depth)
                    return try await planner.computeLegsReporting(refined, currentLocation: here)
                }
            },
            .planAccept: { [self] context in
                let params = try context.params(Params.PlanSegment.self)
                return try await edit(params.id) { plan in
                    try plan.acceptingPendingUpdate(ofSegment: try self.segmentIndex(params.segment, in: plan))
                }
            },
            .planDismiss: { [self] context in
                let params = try context.params(Params.PlanSegment.self)
                return try await edit(params.id) { plan in
                    try plan.dismissingPendingUpdate(ofSegment: try self.segmentIndex(params.segment, in: plan))
                }
            },
            .planRefresh: { [self] context in
                // Every leg is asked again with the current routing data (e.g. after a region was
                // re-imported with a newer feed). Modes, locks and inserted stops stay; a pinned
                // departure is re-found by its trip or fingerprint, or kept with a pending update.
                let id = try context.params(Params.PlanID.self).id
                return try await edit(id) { plan in plan.refreshing() }
            },
        ]
    }

    /// The day a bare `HH:MM` in an edit of `plan` refers to: the date of its `at`/`arrive_by`, so
    /// that editing a plan for another day does not jump to today. A plan that leaves now is for today.
    func planDay(_ plan: RoutePlan) -> Date {
        switch plan.timePreference {
        case .departAt(let date), .arriveBy(let date): date
        case .leaveNow: clock.now()
        }
    }

    /// An edit whose legs are then filled by `computeLegs` (only the emptied ones are queried).
    func edit(_ id: Int64, change: @escaping @Sendable (RoutePlan) throws -> RoutePlan) async throws -> JSONValue {
        let planner = planner, here = location.current?.coordinate
        return try await edit(id, change: change) { plan in
            try await planner.computeLegsReporting(plan, currentLocation: here)
        }
    }

    func edit(_ id: Int64, change: @escaping @Sendable (RoutePlan) throws -> RoutePlan,
              compute: @escaping @Sendable (RoutePlan) async throws -> LegComputation) async throws -> JSONValue {
        _ = try regions.requireRegions()
        return try planDocument(try await plans.edit(id: id, change: change, compute: compute))
    }
}
