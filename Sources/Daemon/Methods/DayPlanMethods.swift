import Foundation
import Planner
import WireProtocol

/// `plan.stay`, `plan.alternatives`, `plan.choose`, `plan.move`, `plan.unlock`, `plan.rename`,
/// `plan.copy`: a day of several places and the user's choices in it. The edits among them take
/// the plan service's one edit path, as `plan.edits` does; `plan.alternatives` only reads.
struct DayPlanMethods: Sendable {
    let edits: PlanEditMethods

    private var service: PlanService { edits.service }

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planStay) { params, _ in try await edits.edit(.stay(params), params.expectedGeneration) }
        table.register(Endpoints.planAlternatives) { params, _ in
            let input = service.input, regions = service.regions
            let current = try await service.plans.show(id: params.id)
            let segment = try input.segmentIndex(params.segment, in: current.plan)
            let count = try PlanService.count(params.count)
            _ = try regions.requireRegions()
            let now = input.clock.now()
            let zone = regions.timeZone(of: current.plan)
            let time = current.plan.departureTimes(startingAt: now)[segment]
            let options = try await service.planner.alternatives(for: current.plan, segment: segment, count: count)
            return AlternativesDocument(id: params.id, segment: params.segment, mode: current.plan.modes[segment].rawValue,
                                        time: time.map { WireTime.string(from: $0, timeZone: zone) },
                                        timeZone: WireTime.zoneName(zone),
                                        options: options.map { WireDocuments.leg($0, timeZone: zone, departure: time) },
                                        day: String(WireTime.string(from: input.planDay(current.plan), timeZone: zone).prefix(10)))
        }
        table.register(Endpoints.planChoose) { params, _ in try await edits.edit(.choose(params), params.expectedGeneration) }
        table.register(Endpoints.planMove) { params, _ in try await edits.edit(.move(params), params.expectedGeneration) }
        table.register(Endpoints.planUnlock) { params, _ in try await edits.edit(.unlock(params), params.expectedGeneration) }
        table.register(Endpoints.planRename) { params, _ in try await edits.edit(.rename(params), params.expectedGeneration) }
        table.register(Endpoints.planCopy) { params, _ in edits.document(try await service.copy(params)) }
    }
}
