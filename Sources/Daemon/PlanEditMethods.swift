import Foundation
import Planner
import WireProtocol

/// Every `plan.*` edit. Each validates and applies its change (bad input changes nothing),
/// then computes only the legs the change emptied, and answers with the updated plan.
struct PlanEditMethods: Sendable {
    let planner: Planner
    let plans: PlanCoordinator
    let resolver: PlaceResolver
    let regions: RegionRegistry
    let location: LocationState
    let input: WireInput

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planInsert) { params, _ in
            let mode = try params.mode.map { try input.mode($0) }
            let current = try await plans.show(id: params.id).plan
            guard (1...current.nodes.count).contains(params.after) else {
                throw DaemonError.invalidParams("after must be 1 to \(current.nodes.count) (after the last node, the place becomes the destination)")
            }
            let near = try params.near.map { try resolver.resolve($0, region: params.region).place.coordinate }
            let node = try resolver.resolve(params.place, near: near ?? current.nodes[params.after - 1].place.coordinate,
                                            region: params.region)
            return try await edit(params.id) { try $0.insertingNode(node, at: params.after, mode: mode) }
        }
        table.register(Endpoints.planRemove) { params, _ in
            try await edit(params.id) { plan in try plan.removingNode(at: try input.nodeIndex(params.node, in: plan)) }
        }
        table.register(Endpoints.planMode) { params, _ in
            let mode = try input.mode(params.mode)
            return try await edit(params.id) { plan in
                try plan.changingMode(ofSegment: try input.segmentIndex(params.segment, in: plan), to: mode)
            }
        }
        table.register(Endpoints.planSwap) { params, _ in
            let current = try await plans.show(id: params.id)
            let planner = planner, here = location.current?.coordinate
            return try await edit(params.id, title: current.plan.titleAfterSwap(current.title), change: { $0.swappingEnds() }) {
                try await planner.computeLegsReporting($0, currentLocation: here)
            }
        }
        table.register(Endpoints.planPreset) { params, _ in
            let preset = try input.preset(params.preset)
            let planner = planner, here = location.current?.coordinate
            return try await edit(params.id, change: { $0 }) { plan in
                LegComputation(plan: try await planner.applyingPreset(preset, to: plan, currentLocation: here),
                               failures: [], queryCount: 0)
            }
        }
        table.register(Endpoints.planRebuild) { params, _ in
            let preset = try input.preset(params.preset)
            let planner = planner, here = location.current?.coordinate
            return try await edit(params.id, change: { $0 }) { plan in
                LegComputation(plan: try await planner.rebuild(plan, preset: preset, currentLocation: here),
                               failures: [], queryCount: 0)
            }
        }
        table.register(Endpoints.planPin) { params, _ in
            let current = try await plans.show(id: params.id).plan
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
            return try await edit(params.id) { plan in
                guard plan == current else { throw DaemonError.invalidParams("the plan changed while pinning; try again") }
                return pinned
            }
        }
        table.register(Endpoints.planUnpin) { params, _ in
            try await edit(params.id) { $0.unpinning() }
        }
        table.register(Endpoints.planPace) { params, _ in
            if params.pace == "next" { return try await edit(params.id) { $0.cyclingPace() } }
            let pace = try input.pace(params.pace)
            return try await edit(params.id) { $0.settingPace(pace) }
        }
        table.register(Endpoints.planTime) { params, _ in
            let current = try await plans.show(id: params.id).plan
            let zone = regions.timeZone(of: current)
            let given = [params.now == true, params.at != nil, params.arriveBy != nil].filter { $0 }.count
            guard given == 1 else { throw DaemonError.invalidParams("give exactly one of now, at or arrive_by") }
            let preference = params.now == true ? .leaveNow
                : try input.timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: zone, day: input.planDay(current))
            return try await edit(params.id) { $0.settingTimePreference(preference) }
        }
        table.register(Endpoints.planRefine) { params, _ in
            let depth = params.depth ?? 2
            guard (1...4).contains(depth) else { throw DaemonError.invalidParams("depth must be 1 to 4, got \(depth)") }
            let planner = planner, here = location.current?.coordinate
            return try await edit(params.id, change: { $0 }) { plan in
                let computed = try await planner.computeLegsReporting(plan, currentLocation: here)
                let refined = try await planner.refine(computed.plan, depth: depth)
                return try await planner.computeLegsReporting(refined, currentLocation: here)
            }
        }
        table.register(Endpoints.planAccept) { params, _ in
            try await edit(params.id) { plan in
                try plan.acceptingPendingUpdate(ofSegment: try input.segmentIndex(params.segment, in: plan))
            }
        }
        table.register(Endpoints.planDismiss) { params, _ in
            try await edit(params.id) { plan in
                try plan.dismissingPendingUpdate(ofSegment: try input.segmentIndex(params.segment, in: plan))
            }
        }
        table.register(Endpoints.planRefresh) { params, _ in
            // Every leg is asked again with the current routing data (e.g. after a region was
            // re-imported with a newer feed). Modes, locks and inserted stops stay; a pinned
            // departure is re-found by its trip or fingerprint, or kept with a pending update.
            try await edit(params.id) { plan in plan.refreshing() }
        }
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
}
