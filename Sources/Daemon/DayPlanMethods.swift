import Foundation
import Planner
import Store
import WireProtocol

/// `plan.stay`, `plan.alternatives`, `plan.choose`, `plan.move`, `plan.unlock`, `plan.rename`,
/// `plan.copy`: a day of several places and the user's choices in it. The handlers only read
/// the params; the changes are the planner's (`RoutePlan+DayPlan`, `Planner+DayPlans`), applied
/// through the same edit path as every other plan edit.
struct DayPlanMethods: Sendable {
    let edits: PlanEditMethods
    /// `plan.copy` creates a plan.
    let store: Store
    let counters: DaemonCounters
    let events: EventHub

    private var planner: Planner { edits.planner }
    private var plans: PlanCoordinator { edits.plans }
    private var input: WireInput { edits.input }
    private var regions: RegionRegistry { edits.regions }

    /// The most alternatives one request may ask for.
    static let maxAlternatives = 20

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planStay) { params, _ in
            let current = try await plans.show(id: params.id).plan
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
            return try await edits.edit(params.id) { try $0.settingStay(stay, atNode: index) }
        }
        table.register(Endpoints.planAlternatives) { params, _ in
            let current = try await plans.show(id: params.id)
            let segment = try input.segmentIndex(params.segment, in: current.plan)
            let count = try Self.count(params.count)
            _ = try regions.requireRegions()
            let now = input.clock.now()
            let zone = regions.timeZone(of: current.plan)
            let time = current.plan.departureTimes(startingAt: now)[segment]
            let options = try await planner.alternatives(for: current.plan, segment: segment, count: count)
            return AlternativesDocument(id: params.id, segment: params.segment, mode: current.plan.modes[segment].rawValue,
                                        time: time.map { WireTime.string(from: $0, timeZone: zone) },
                                        timeZone: WireTime.zoneName(zone),
                                        options: options.map { WireDocuments.leg($0, timeZone: zone, departure: time) },
                                        day: String(WireTime.string(from: input.planDay(current.plan), timeZone: zone).prefix(10)))
        }
        table.register(Endpoints.planChoose) { params, _ in
            let current = try await plans.show(id: params.id).plan
            let segment = try input.segmentIndex(params.segment, in: current)
            let count = try Self.count(params.count)
            guard (1...count).contains(params.option) else {
                throw DaemonError.invalidParams("option must be 1 to \(count), got \(params.option)")
            }
            _ = try regions.requireRegions()
            let options = try await planner.alternatives(for: current, segment: segment, count: count)
            guard options.indices.contains(params.option - 1) else {
                throw DaemonError.invalidParams("option \(params.option) does not exist: segment \(params.segment) has \(options.count)")
            }
            let chosen = try current.choosingAlternative(options[params.option - 1], ofSegment: segment)
            return try await edits.edit(params.id) { plan in
                guard plan == current else { throw DaemonError.invalidParams("the plan changed while choosing; try again") }
                return chosen
            }
        }
        table.register(Endpoints.planMove) { params, _ in
            let current = try await plans.show(id: params.id).plan
            let index = try input.nodeIndex(params.node, in: current)
            let near = try params.near.map { try edits.resolver.resolve($0, region: params.region).place.coordinate }
            let node = try edits.resolver.resolve(params.place, near: near ?? current.nodes[index].place.coordinate,
                                                  region: params.region, planRegion: edits.regions.regionName(of: current))
            return try await edits.edit(params.id) { try $0.movingNode(at: index, to: node.place) }
        }
        table.register(Endpoints.planUnlock) { params, _ in
            try await edits.edit(params.id) { plan in try plan.unlocking(segment: try input.segmentIndex(params.segment, in: plan)) }
        }
        table.register(Endpoints.planRename) { params, _ in
            let title = try Self.title(params.title)
            return try await edits.edit(params.id, title: title, change: { $0 }) {
                LegComputation(plan: $0, failures: [], queryCount: 0)
            }
        }
        table.register(Endpoints.planCopy) { params, _ in
            let original = try await plans.show(id: params.id)
            let title = try Self.title(params.title ?? "\(original.title) (copy)")
            let id = try store.createPlan(original.plan, title: title)
            await plans.created(id: id, failures: original.failures)
            counters.countPlanRecomputed()
            events.publish("plan_recomputed", ["plan_id": .number(Double(id)), "generation": .number(1), "queries": .number(0)])
            return WireDocuments.plan(PlanCoordinator.Outcome(id: id, plan: original.plan, title: title, generation: 1,
                                                              failures: original.failures),
                                      regions: regions, now: input.clock.now())
        }
    }

    static func count(_ given: Int?) throws -> Int {
        let count = given ?? 5
        guard (1...maxAlternatives).contains(count) else {
            throw DaemonError.invalidParams("count must be 1 to \(maxAlternatives), got \(count)")
        }
        return count
    }

    static func title(_ text: String) throws -> String {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw DaemonError.invalidParams("title must not be empty") }
        return text
    }
}
