import Foundation
import Planner
import WireProtocol

/// `plan.stay`, `plan.alternatives`, `plan.choose`, `plan.move`, `plan.unlock`, `plan.rename`,
/// `plan.copy`: a day of several places and the user's choices in it. The edits among them take
/// the plan service's one edit path, as `plan.edits` does; `plan.alternatives` only reads.
struct DayPlanMethods: Sendable {
    let edits: PlanEditMethods
    /// Told of each copy, so that a copy of a plan owed a refresh is refreshed too.
    let refresher: BackgroundRefresher

    private var service: PlanService { edits.service }

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planStay) { params, _ in try await edits.edit(.stay(params), params.expectedGeneration) }
        table.register(Endpoints.planAlternatives) { params, _ in
            let listed = try await service.alternatives(id: params.id, segment: params.segment, count: params.count)
            let zone = listed.timeZone
            return AlternativesDocument(id: params.id, segment: params.segment, mode: WireMode(listed.plan.modes[listed.segment]),
                                        time: listed.time.map { WireTime.string(from: $0, timeZone: zone) },
                                        timeZone: WireTime.zoneName(zone),
                                        options: listed.options.map { WireDocuments.leg($0, timeZone: zone, departure: listed.time) },
                                        day: String(WireTime.string(from: service.input.planDay(listed.plan), timeZone: zone).prefix(10)))
        }
        table.register(Endpoints.planChoose) { params, _ in try await edits.edit(.choose(params), params.expectedGeneration) }
        table.register(Endpoints.planMove) { params, _ in try await edits.edit(.move(params), params.expectedGeneration) }
        table.register(Endpoints.planUnlock) { params, _ in try await edits.edit(.unlock(params), params.expectedGeneration) }
        table.register(Endpoints.planRename) { params, _ in try await edits.edit(.rename(params), params.expectedGeneration) }
        table.register(Endpoints.planCopy) { params, _ in
            let owed = await refresher.isOwed(params.id)
            let copy = try await service.copy(id: params.id, title: params.title, expectedGeneration: params.expectedGeneration)
            await refresher.planCopied(from: params.id, as: copy.id, wasOwed: owed)
            return edits.document(copy)
        }
    }
}
